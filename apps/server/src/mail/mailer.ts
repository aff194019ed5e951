// Outgoing e-mail. Features depend on the small `Mailer` interface; the real one speaks SMTP
// through nodemailer from RASTRO_SMTP_URL (smtp:// or smtps://, credentials in the URL), and
// when no SMTP server is configured a disabled mailer logs a warning instead of sending.
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent along (reports' spreadsheets). */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

export interface Mailer {
  /** True when messages really leave the server (reported as `emailEnabled` by /api/server). */
  readonly enabled: boolean;
  /** Sends one message; rejects when the SMTP server refuses it. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export class SmtpMailer implements Mailer {
  readonly enabled = true;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    /** Told of each message the SMTP server took (the server's statistics count them). */
    private readonly onSent: () => void = () => undefined,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
    this.onSent();
  }

  close(): void {
    this.transport.close();
  }
}

/** Used when SMTP is not configured: nothing is sent, the operator sees why in the log. */
export class DisabledMailer implements Mailer {
  readonly enabled = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  async send(message: MailMessage): Promise<void> {
    this.log.warn({ subject: message.subject }, 'e-mail not sent: RASTRO_SMTP_URL is not configured');
  }

  close(): void {}
}

export function createMailer(config: Config, log: FastifyBaseLogger, onSent?: () => void): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom, onSent) : new DisabledMailer(log);
}
