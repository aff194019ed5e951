// POST /api/notifications/test: Traccar's "send a test notification to me" (the account
// dialog's button). As Traccar, a fake event of type `test` (no device) goes to the caller
// through every notificator that can reach them without a notification rule: the web socket
// (`{events}` to the caller's open sockets, on every instance through the live feed) and,
// when the caller has an e-mail and SMTP is configured, a mail. Readonly accounts are refused,
// as Traccar's checkRestriction(readonly) does, and so are share visitors (an account that only
// views one vehicle receives no notifications). 204 when sent; 400 with the reason when the
// mail server refused the message (the socket event has gone out by then).
import type { FastifyInstance } from 'fastify';
import type { Event } from '@rastro/domain/entities';
import { isSharedUser } from '@rastro/domain/permissions';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { mailLanguage, type MailLanguage } from '../mail/mail-language.ts';

const TEXTS: Record<MailLanguage, { subject: string; body: (name: string) => string }> = {
  'pt-BR': {
    subject: 'Notificação de teste',
    body: (name) => `Olá ${name},\n\nEsta é uma notificação de teste. Se você a recebeu, as suas notificações por e-mail funcionam.\n`,
  },
  es: {
    subject: 'Notificación de prueba',
    body: (name) => `Hola ${name},\n\nEsta es una notificación de prueba. Si la recibió, sus notificaciones por correo funcionan.\n`,
  },
  en: {
    subject: 'Test notification',
    body: (name) => `Hello ${name},\n\nThis is a test notification. If you received it, your e-mail notifications work.\n`,
  },
};

/** The event Traccar builds for a test: type `test`, no device, now; `message` is what the web notificator shows. */
export function testEvent(language: MailLanguage, now = Date.now()): Event {
  return {
    id: 0,
    type: 'test',
    eventTime: new Date(now).toISOString(),
    deviceId: 0,
    positionId: 0,
    geofenceId: 0,
    maintenanceId: 0,
    attributes: { message: TEXTS[language].subject },
  };
}

export async function notificationTestRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/notifications/test', async (req, reply) => {
    const user = requireUser(req);
    assertCanWrite(user, await getServerRow(ctx));
    const attributes = parseAttributes(user.attributes, 'user.attributes', user.id);
    if (isSharedUser({ attributes })) throw forbidden();
    const language = mailLanguage(attributes);
    ctx.live.publish({ events: [{ userId: user.id, event: testEvent(language) }] });
    const email = user.email.trim();
    // Traccar's mail notificator needs an address to write to; login names without one get the socket only.
    if (ctx.mailer.enabled && email.includes('@')) {
      const text = TEXTS[language];
      try {
        await ctx.mailer.send({ to: email, subject: text.subject, text: text.body(user.name) });
      } catch (error) {
        req.log.warn({ err: error }, 'test notification mail refused');
        throw badRequest(`Test mail not sent - the mail server refused it: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    return reply.code(204).send();
  });
}
