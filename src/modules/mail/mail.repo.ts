import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailMessage } from './mail.tables.ts';

/** A page of the mail outbox, newest first, and how many messages it holds. */
export async function pageMail(db: Db, limit: number, offset: number) {
  const rows = await db.select().from(mailMessage).orderBy(desc(mailMessage.id)).limit(limit).offset(offset);
  const [{ total }] = await db.select({ total: count() }).from(mailMessage);
  return { rows, total };
}
