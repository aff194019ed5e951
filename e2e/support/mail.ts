// Mails the local SMTP server of global-setup.ts received (one .eml file each).
import fs from 'node:fs';
import path from 'node:path';
import { env } from './env.ts';

export interface Mail {
  to: string;
  /** The decoded text (quoted-printable soft breaks and escapes undone). */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const escape = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (escape) {
      bytes.push(parseInt(escape[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export function readMails(): Mail[] {
  return fs
    .readdirSync(env.mailDir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = fs.readFileSync(path.join(env.mailDir, f), 'utf8');
      const to = /^X-E2E-To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
      return { to, text: decodeQuotedPrintable(raw) };
    });
}

/** Waits for the first mail to `address` and returns it. */
export async function waitForMail(address: string, timeoutMs = 10_000): Promise<Mail> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const mail = readMails().find((m) => m.to.split(',').includes(address.toLowerCase()) || m.to.split(',').includes(address));
    if (mail) return mail;
    if (Date.now() > end) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
