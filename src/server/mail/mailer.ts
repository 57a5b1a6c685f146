import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The person whose action sent it; deleting their account removes the outbox row. */
  senderId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>;

/**
 * SMTP when SMTP_URL is set. Otherwise mail is kept where an operator can read it: a row in
 * outbox_messages and an .eml file in DATA_DIR/outbox, so invitations work on a machine with no mail server.
 */
export function createMailer(config: MailConfig, db: Database): Mailer {
  if (config.SMTP_URL) return smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return outboxMailer(join(config.DATA_DIR, 'outbox'), config.MAIL_FROM, db);
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(url);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

let sequence = 0;

function outboxMailer(folder: string, from: string, db: Database): Mailer {
  return {
    async send({ to, subject, text, senderId }) {
      await db
        .insert(outboxMessages)
        .values({ recipient: to, subject, body: text, senderId: senderId ?? null });
      await mkdir(folder, { recursive: true });
      sequence += 1;
      const file = join(folder, `${Date.now()}-${sequence}.eml`);
      await writeFile(file, toEml({ from, to, subject, text }), { encoding: 'utf8', mode: 0o600 });
    },
  };
}

/** Header values come from people (subjects name playlists): line breaks would forge headers. */
const headerValue = (value: string) => value.replace(/[\r\n]+/g, ' ');

function toEml({ from, to, subject, text }: { from: string; to: string; subject: string; text: string }) {
  return [
    `From: ${headerValue(from)}`,
    `To: ${headerValue(to)}`,
    `Subject: ${headerValue(subject)}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text.replace(/\r?\n/g, '\r\n'),
    '',
  ].join('\r\n');
}
