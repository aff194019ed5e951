// The password-recovery message, in the user's language.
import type { MailMessage } from './mailer.ts';
import type { MailLanguage } from './mail-language.ts';

const TEXTS: Record<MailLanguage, { subject: string; body: (name: string, link: string) => string }> = {
  'pt-BR': {
    subject: 'Recuperação de senha',
    body: (name, link) =>
      `Olá ${name},\n\nRecebemos um pedido para redefinir a sua senha. Para escolher uma nova senha, abra o link abaixo ` +
      `(válido por 1 hora, uma única vez):\n\n${link}\n\nSe você não fez este pedido, ignore esta mensagem: sua senha continua a mesma.\n`,
  },
  es: {
    subject: 'Recuperación de contraseña',
    body: (name, link) =>
      `Hola ${name},\n\nRecibimos una solicitud para restablecer su contraseña. Para elegir una nueva, abra el enlace ` +
      `(válido durante 1 hora, una sola vez):\n\n${link}\n\nSi usted no hizo esta solicitud, ignore este mensaje: su contraseña no cambia.\n`,
  },
  en: {
    subject: 'Password recovery',
    body: (name, link) =>
      `Hello ${name},\n\nWe received a request to reset your password. To choose a new one, open the link below ` +
      `(valid for 1 hour, once):\n\n${link}\n\nIf you did not ask for this, ignore this message: your password stays the same.\n`,
  },
};

export function passwordResetMail(to: string, name: string, link: string, language: MailLanguage): MailMessage {
  const t = TEXTS[language];
  return { to, subject: t.subject, text: t.body(name, link) };
}
