import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';

/** The SQL of the outbox: every e-mail the outbox mailer "sent", for the operator and the tests to read. */
export async function insertOutboxMessage(
  db: Database,
  message: { recipient: string; subject: string; body: string; senderId: string | null },
): Promise<void> {
  await db.insert(outboxMessages).values(message);
}
