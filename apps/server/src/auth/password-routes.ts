// Password recovery. The client posts `email` (+ `requested_from`) to /api/session/password
// and we mail a one-hour, one-use link; it later posts `token` + `password` to the same path.
// Traccar's own paths /api/password/reset and /api/password/update do the same.
//
// The request answers the same way, at the same speed, whether or not the account exists:
// the mail is sent in the background, so neither the answer nor its timing reveals accounts.
// The link points only at this server (auth/reset-link.ts). Only the newest reset token of a
// user works, once: issuing one ends the older ones, using it ends it, and a new password
// ends the user's sessions, login tokens and sockets (auth/credential-changes.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { mailLanguage } from '../mail/mail-language.ts';
import { passwordResetMail } from '../mail/password-reset-mail.ts';
import { AuthStateRepo } from './auth-state-repo.ts';
import { passwordChanged } from './credential-changes.ts';
import { formField } from './form.ts';
import { clientNetwork } from './login-throttle.ts';
import { hashPassword } from './passwords.ts';
import { SlidingWindow } from './rate-window.ts';
import { requestLinkBase, resetLink, warnWithoutPublicUrl } from './reset-link.ts';

export const RESET_TOKEN_MS = 60 * 60_000;
export const MIN_PASSWORD_LENGTH = 4;

// At most 3 recovery mails per account (20 per client network) in 15 minutes; more requests
// still get the usual answer but send nothing, so the endpoint cannot be used to flood a mailbox.
const MAIL_LIMITS = { perAccount: 3, perAddress: 20, windowMs: 15 * 60_000 };
const mailWindows = new WeakMap<AppContext, { accounts: SlidingWindow; networks: SlidingWindow }>();

/** True (and counted) when one more recovery mail may go to this account from this address. */
function mayMail(ctx: AppContext, userId: number, address: string, now = Date.now()): boolean {
  let w = mailWindows.get(ctx);
  if (!w) {
    w = { accounts: new SlidingWindow(MAIL_LIMITS.windowMs, MAIL_LIMITS.perAccount), networks: new SlidingWindow(MAIL_LIMITS.windowMs, MAIL_LIMITS.perAddress) };
    mailWindows.set(ctx, w);
  }
  const account = String(userId);
  const network = clientNetwork(address);
  if (w.accounts.count(account, now) >= MAIL_LIMITS.perAccount || w.networks.count(network, now) >= MAIL_LIMITS.perAddress) return false;
  w.accounts.add(account, now);
  w.networks.add(network, now);
  return true;
}

export async function passwordRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  warnWithoutPublicUrl(ctx.config, ctx.log);
  const authState = new AuthStateRepo(ctx.storage.db);
  // Issuing runs after the answer, one at a time, so two quick requests store their tokens in
  // the order they came and the newest mail holds the token that works.
  let issuing: Promise<void> = Promise.resolve();

  const requestReset = async (req: FastifyRequest, email: string | undefined) => {
    if (!email?.trim()) throw badRequest(SERVER_ERROR_TEXTS.fillEmail);
    const user = await ctx.users.findByLogin(email);
    if (!user || user.temporary === 1 || !user.email.includes('@')) return;
    if (!mayMail(ctx, user.id, req.ip)) {
      ctx.log.warn({ userId: user.id }, 'password recovery mail skipped: too many requests');
      return;
    }
    // Read from the request now: once answered, its connection may be gone.
    const linkBase = requestLinkBase(ctx, req, formField(req.body, 'requested_from'));
    linkBase.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
    issuing = issuing.then(async () => {
      const base = await linkBase;
      const { token, payload } = ctx.tokens.issueToken(user.id, Date.now() + RESET_TOKEN_MS, 'reset');
      // From now on only this token works.
      await authState.setResetToken(user.id, payload.id);
      const mail = passwordResetMail(user.email, user.name, resetLink(base, token), mailLanguage(parseAttributes(user.attributes)));
      ctx.mailer.send(mail).catch((error: unknown) => {
        ctx.log.warn({ err: error, userId: user.id }, 'password recovery mail could not be sent');
      });
    }).catch((error: unknown) => ctx.log.warn({ err: error, userId: user.id }, 'password recovery mail could not be prepared'));
  };

  const setPassword = async (token: string | undefined, password: string | undefined) => {
    if (!token?.trim()) throw badRequest(SERVER_ERROR_TEXTS.fillToken);
    if (!password || password.length < MIN_PASSWORD_LENGTH) {
      throw badRequest(`Password too short - use at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const payload = await ctx.tokens.verify(token.trim(), 'reset');
    if (!payload) throw badRequest(SERVER_ERROR_TEXTS.invalidLogin);
    const user = await ctx.users.findById(payload.userId);
    if (!user) throw notFound('User not found');
    const hash = await hashPassword(password);
    // One use, of the newest token only: whoever takes it first sets the password.
    if (!(await authState.takeResetToken(user.id, payload.id))) throw badRequest(SERVER_ERROR_TEXTS.invalidLogin);
    await ctx.users.update(user.id, { hashedPassword: hash.hashedPassword, salt: hash.salt });
    // Whoever knew the old password is logged out everywhere.
    await passwordChanged(ctx, user.id, null);
  };

  const answer = { config: { public: true } } as const;

  app.post('/api/session/password', answer, async (req, reply) => {
    const token = formField(req.body, 'token');
    if (token !== undefined) await setPassword(token, formField(req.body, 'password'));
    else await requestReset(req, formField(req.body, 'email'));
    return reply.code(200).send();
  });

  app.post('/api/password/reset', answer, async (req, reply) => {
    await requestReset(req, formField(req.body, 'email'));
    return reply.code(200).send();
  });

  app.post('/api/password/update', answer, async (req, reply) => {
    await setPassword(formField(req.body, 'token'), formField(req.body, 'password'));
    return reply.code(200).send();
  });
}
