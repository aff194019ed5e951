// Password recovery. The client posts `email` (+ `requested_from`) to /api/session/password
// and we mail a one-hour, one-use link; it later posts `token` + `password` to the same path.
// Traccar's own paths /api/password/reset and /api/password/update do the same.
//
// The request answers the same way, at the same speed, whether or not the account exists:
// the mail is sent in the background, so neither the answer nor its timing reveals accounts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { mailLanguage } from '../mail/mail-language.ts';
import { passwordResetMail } from '../mail/password-reset-mail.ts';
import { forgetBasicCredentials } from './authenticate.ts';
import { formField } from './form.ts';
import { LoginThrottle } from './login-throttle.ts';
import { hashPassword } from './passwords.ts';
import { resetLink, resetLinkBase } from './reset-link.ts';

export const RESET_TOKEN_MS = 60 * 60_000;
export const MIN_PASSWORD_LENGTH = 4;

// At most 3 recovery mails per account (20 per client address) in 15 minutes; more requests
// still get the usual answer but send nothing, so the endpoint cannot be used to flood a mailbox.
const mailThrottles = new WeakMap<AppContext, LoginThrottle>();
function mailThrottle(ctx: AppContext): LoginThrottle {
  let t = mailThrottles.get(ctx);
  if (!t) mailThrottles.set(ctx, (t = new LoginThrottle({ perAccount: 3, perAddress: 20, windowMs: 15 * 60_000 })));
  return t;
}

export async function passwordRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const requestReset = async (req: FastifyRequest, email: string | undefined) => {
    if (!email?.trim()) throw badRequest(SERVER_ERROR_TEXTS.fillEmail);
    const user = await ctx.users.findByLogin(email);
    if (!user || user.temporary === 1 || !user.email.includes('@')) return;
    const throttle = mailThrottle(ctx);
    try {
      throttle.check(user.email, req.ip);
    } catch {
      ctx.log.warn({ userId: user.id }, 'password recovery mail skipped: too many requests');
      return;
    }
    throttle.failed(user.email, req.ip);
    const base = resetLinkBase({
      requestedFrom: formField(req.body, 'requested_from'),
      hostHeader: req.headers.host,
      protocol: req.protocol,
      publicUrl: ctx.config.publicUrl,
    });
    const token = ctx.tokens.issue(user.id, Date.now() + RESET_TOKEN_MS, 'reset');
    const mail = passwordResetMail(user.email, user.name, resetLink(base, token), mailLanguage(parseAttributes(user.attributes)));
    ctx.mailer.send(mail).catch((error: unknown) => {
      ctx.log.warn({ err: error, userId: user.id }, 'password recovery mail could not be sent');
    });
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
    // One use: whoever revokes the token first sets the password.
    if (!(await ctx.tokens.consume(token.trim()))) throw badRequest(SERVER_ERROR_TEXTS.invalidLogin);
    const hash = await hashPassword(password);
    await ctx.users.update(user.id, { hashedPassword: hash.hashedPassword, salt: hash.salt });
    // Whoever knew the old password is logged out everywhere.
    await ctx.sessions.destroyUser(user.id);
    forgetBasicCredentials(ctx, user.id);
    ctx.changes.publish({ kind: 'user', id: user.id });
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
