import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxMessages } from '../db/schema';
import { createTestDatabase } from '../testing/test-database';
import { createMailer } from './mailer';

type Handle = Awaited<ReturnType<typeof createTestDatabase>>;

describe('createMailer', () => {
  let database: Handle;
  let dataDir: string;
  beforeEach(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'crossfade-mail-'));
  });
  afterEach(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('without SMTP keeps each message as an outbox row and a readable .eml file', async () => {
    const mailer = createMailer(
      { DATA_DIR: dataDir, MAIL_FROM: 'Crossfade <x@y.z>', SMTP_URL: undefined },
      database.db,
    );
    await mailer.send({
      to: 'friend@example.com',
      subject: 'Join my mix',
      text: 'Open http://x/merge/invite/abc',
    });
    await mailer.send({ to: 'other@example.com', subject: 'Second\r\nBcc: evil@example.com', text: 'Two' });

    const rows = await database.db.select().from(outboxMessages);
    expect(rows.map((row) => row.recipient).sort()).toEqual(['friend@example.com', 'other@example.com']);
    const files = readdirSync(join(dataDir, 'outbox')).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d+-\d+\.eml$/);
    const all = files.map((file) => readFileSync(join(dataDir, 'outbox', file), 'utf8')).join('\n');
    expect(all).toContain('To: friend@example.com');
    expect(all).toContain('Subject: Join my mix');
    expect(all).toContain('Open http://x/merge/invite/abc');
    // A line break in a subject must not become a header of its own.
    expect(all).not.toMatch(/^Bcc:/m);
  });

  it('keeps no working token: secret links are stored as [link sent] in the row and the .eml file', async () => {
    const mailer = createMailer(
      { DATA_DIR: dataDir, MAIL_FROM: 'Crossfade <x@y.z>', SMTP_URL: undefined },
      database.db,
    );
    const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi0xMjM0NTY3ODkwYWJj';
    const link = `http://x/merge/invite/${token}`;
    await mailer.send({
      to: 'friend@example.com',
      subject: 'Join my mix',
      text: `Pick a playlist:\n${link}\nThe link works for 14 days.`,
      secrets: [link, token],
    });
    const [row] = await database.db.select().from(outboxMessages);
    expect(row?.body).toBe('Pick a playlist:\n[link sent]\nThe link works for 14 days.');
    const [file] = readdirSync(join(dataDir, 'outbox'));
    const eml = readFileSync(join(dataDir, 'outbox', file ?? ''), 'utf8');
    expect(eml).toContain('[link sent]');
    expect(eml).toContain('The link works for 14 days.');
    expect(eml).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('with SMTP_URL delivers through an SMTP server', async () => {
    const received: string[] = [];
    const server = await fakeSmtpServer(received);
    try {
      const { port } = server.address() as AddressInfo;
      const mailer = createMailer(
        {
          DATA_DIR: dataDir,
          MAIL_FROM: 'Crossfade <no-reply@crossfade.local>',
          SMTP_URL: `smtp://127.0.0.1:${port}`,
        },
        database.db,
      );
      await mailer.send({
        to: 'friend@example.com',
        subject: 'Merge with me',
        text: 'Hello friend http://x/merge/invite/secret-token-abc',
        secrets: ['http://x/merge/invite/secret-token-abc'],
      });
      const data = received.join('');
      // The recipient gets the working link; nothing is stored.
      expect(data).toContain('http://x/merge/invite/secret-token-abc');
      expect(data).toContain('RCPT TO:<friend@example.com>');
      expect(data).toContain('Subject: Merge with me');
      expect(data).toContain('Hello friend');
      expect(await database.db.select().from(outboxMessages)).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** Just enough SMTP for one message: greets, accepts every command, records what the client sent. */
async function fakeSmtpServer(received: string[]): Promise<Server> {
  const server = createServer((socket) => {
    let inData = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      received.push(chunk.toString('utf8'));
      buffer += chunk.toString('utf8');
      let index = buffer.indexOf('\r\n');
      while (index >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 queued\r\n');
          }
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
        index = buffer.indexOf('\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}
