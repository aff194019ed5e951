// Session, tokens, "login as" and password recovery. Signing in, out and managing one's own
// tokens is open to every active account (readonly, shared and QR drivers included); disabled
// and expired accounts are refused whichever way they try.
import { issueLoginToken } from '../../../src/auth/login-tokens.ts';
import { AuthStateRepo } from '../../../src/auth/auth-state-repo.ts';
import { NO, OK, OUT, SIGNED_OUT, objectId } from '../roles.ts';
import type { Row } from '../table.ts';
import type { World } from '../world.ts';

const DAY = 86_400_000;
const self = (key: keyof World['user']) => objectId((w) => w.user[key]);

/** Each role as itself: an object with its own id. */
const SELVES = {
  admin: self('admin'), admin2: self('admin2'), reseller: self('reseller'), subReseller: self('subReseller'), customer: self('customer'),
  unrelated: self('unrelated'), readonly: self('readonly'), deviceReadonly: self('deviceReadonly'), limitCommands: self('limitCommands'),
  shared: self('shared'), driver: self('driver'),
} as const;

/** Every active account may (session management is not a write). */
const EVERY_ACTIVE = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: OK, readonly: OK, deviceReadonly: OK,
  limitCommands: OK, shared: OK, driver: OK,
} as const;

export const sessionRows: Row[] = [
  {
    route: 'POST /api/session',
    variant: 'signing in with its own e-mail and password',
    session: 'none',
    request: ({ role, login }) => ({
      path: '/api/session',
      form: role === 'anonymous' ? { email: 'nobody@authz.test', password: 'wrong-pass' } : { email: login[role].email, password: login[role].password },
    }),
    expect: { ...SELVES, disabled: OUT, expired: OUT, anonymous: OUT },
  },
  {
    route: 'GET /api/session',
    variant: 'its current session',
    request: () => ({ path: '/api/session' }),
    // Traccar answers 404 when there is no session; the expired one's refused session counts as none.
    expect: { ...SELVES, disabled: OUT, expired: 404, anonymous: 404 },
  },
  {
    route: 'GET /api/session',
    variant: 'with Basic credentials of its own (stateless)',
    session: 'none',
    request: ({ role, login }) => {
      const [email, password] = role === 'anonymous' ? ['nobody@authz.test', 'wrong-pass'] : [login[role].email, login[role].password];
      return { path: '/api/session', headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } };
    },
    expect: { ...SELVES, disabled: OUT, expired: OUT, anonymous: OUT },
  },
  {
    route: 'GET /api/session',
    variant: 'signing in with a token of its own (?token=)',
    session: 'none',
    request: ({ self, ctx }) => ({
      path: `/api/session?token=${encodeURIComponent(self === null ? 'not-a-token' : issueLoginToken(ctx, self, Date.now() + DAY, []))}`,
    }),
    expect: { ...SELVES, disabled: OUT, expired: OUT, anonymous: OUT },
  },
  {
    route: 'DELETE /api/session',
    variant: 'signing out',
    session: 'fresh',
    request: () => ({ path: '/api/session' }),
    expect: { ...EVERY_ACTIVE, ...SIGNED_OUT },
  },
  {
    route: 'POST /api/session/token',
    variant: 'a token for itself',
    request: () => ({ path: '/api/session/token', form: { expiration: new Date(Date.now() + DAY).toISOString() } }),
    expect: { ...EVERY_ACTIVE, ...SIGNED_OUT },
  },
  {
    route: 'POST /api/session/token/revoke',
    variant: 'revoking a token of its own',
    request: ({ self, ctx }) => ({
      path: '/api/session/token/revoke',
      form: { token: issueLoginToken(ctx, self ?? 1, Date.now() + DAY, []) },
    }),
    expect: { ...EVERY_ACTIVE, ...SIGNED_OUT },
  },
  {
    route: 'POST /api/session/token/revoke',
    variant: "revoking the customer's token",
    request: ({ w, ctx }) => ({ path: '/api/session/token/revoke', form: { token: issueLoginToken(ctx, w.user.customer, Date.now() + DAY, []) } }),
    expect: {
      admin: OK, admin2: OK, reseller: NO, subReseller: NO, customer: OK, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/session/:id',
    variant: "acting as C's employee (three levels below the reseller)",
    session: 'fresh',
    request: ({ w }) => ({ path: `/api/session/${w.user.staff}` }),
    expect: {
      admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/session/:id',
    variant: 'acting as the first administrator (superior to the second)',
    session: 'fresh',
    request: ({ w }) => ({ path: `/api/session/${w.user.admin}` }),
    expect: {
      admin: OK, admin2: NO, reseller: NO, subReseller: NO, customer: NO, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/session/:id',
    variant: 'acting as the second administrator',
    session: 'fresh',
    request: ({ w }) => ({ path: `/api/session/${w.user.admin2}` }),
    expect: {
      admin: OK, admin2: OK, reseller: NO, subReseller: NO, customer: NO, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'POST /api/session/password',
    variant: 'asking for a recovery mail (public; same answer for unknown accounts)',
    request: () => ({ path: '/api/session/password', form: { email: 'nobody@authz.test', requested_from: 'http://127.0.0.1' } }),
    // Public: the refused session of the expired account counts as none; Basic credentials that fail are refused.
    expect: { ...EVERY_ACTIVE, disabled: OUT, expired: OK, anonymous: OK },
  },
  {
    route: 'POST /api/password/reset',
    variant: 'asking for a recovery mail (public)',
    request: () => ({ path: '/api/password/reset', form: { email: 'nobody@authz.test' } }),
    expect: { ...EVERY_ACTIVE, disabled: OUT, expired: OK, anonymous: OK },
  },
  {
    route: 'POST /api/password/update',
    variant: "setting C's employee's password with a valid reset token (public)",
    request: async ({ w, ctx }) => {
      const { token, payload } = ctx.tokens.issueToken(w.user.staff, Date.now() + 3_600_000, 'reset');
      await new AuthStateRepo(ctx.storage.db).setResetToken(w.user.staff, payload.id);
      return { path: '/api/password/update', form: { token, password: 'staff-pass-2' } };
    },
    expect: { ...EVERY_ACTIVE, disabled: OUT, expired: OK, anonymous: OK },
  },
];
