import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { insertOutboxMessage } from './outbox-store';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The person whose action sent it; deleting their account removes the outbox row. */
  senderId?: string;
  /**
   * Parts of `text` that work as credentials (an invitation link with its token). They go to the
   * recipient over SMTP, but what we keep (the outbox row and .eml file) has them replaced by
   * `LINK_SENT`, so a stored message never holds a working token.
   */
  secrets?: string[];
}

/** What a stored message shows where a secret link was. */
export const LINK_SENT = '[link sent]';

/** The message as it may be kept: every secret replaced. */
export function withoutSecrets(text: string, secrets: readonly string[] = []): string {
  let kept = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)) {
    kept = kept.split(secret).join(LINK_SENT);
  }
  return kept;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>;

/**
 * SMTP when SMTP_URL is set. Otherwise mail is kept where an operator can read it: a row in
 * outbox_messages and an .eml file in DATA_DIR/outbox, with secret links replaced by `[link sent]` (the
 * inviter copies an invitation link from their screen; a stored message never holds a working token).
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
    async send({ to, subject, text: sent, senderId, secrets }) {
      const text = withoutSecrets(sent, secrets);
      await insertOutboxMessage(db, { recipient: to, subject, body: text, senderId: senderId ?? null });
      await mkdir(folder, { recursive: true, mode: 0o700 });
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
