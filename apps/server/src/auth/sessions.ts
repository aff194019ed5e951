// Cookie sessions (`JSESSIONID`), kept in the database so they survive a restart and are
// shared by several instances; a small in-memory cache spares a query per request.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export interface Session {
  id: string;
  userId: number;
  origin: string | null;
  expiration: number | null;
}

const CACHE_MS = 30_000;
const TOUCH_MS = 60_000;

export class SessionStore {
  private readonly cache = new Map<string, { session: Session | null; at: number; touched: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: number, origin: string | null, expiration: number | null, now = Date.now()): Promise<Session> {
    const session: Session = { id: crypto.randomBytes(24).toString('base64url'), userId, origin, expiration };
    await this.db
      .insertInto('sessions')
      .values({ ...session, createdAt: now, lastSeen: now })
      .execute();
    this.cache.set(session.id, { session, at: now, touched: now });
    return session;
  }

  async get(id: string, now = Date.now()): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(id)) return null;
    const cached = this.cache.get(id);
    let session: Session | null;
    if (cached && now - cached.at < CACHE_MS) {
      session = cached.session;
      if (session && now - cached.touched > TOUCH_MS) {
        cached.touched = now;
        await this.db.updateTable('sessions').set({ lastSeen: now }).where('id', '=', id).execute();
      }
    } else {
      const row = await this.db.selectFrom('sessions').select(['id', 'userId', 'origin', 'expiration']).where('id', '=', id).executeTakeFirst();
      session = row ?? null;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(id, { session, at: now, touched: cached?.touched ?? now });
    }
    if (session && session.expiration !== null && session.expiration <= now) {
      await this.destroy(id);
      return null;
    }
    return session;
  }

  async destroy(id: string): Promise<void> {
    this.cache.delete(id);
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Ends every session of a user (password change, deletion), optionally but one. */
  async destroyUser(userId: number, exceptId: string | null = null): Promise<void> {
    for (const [key, entry] of this.cache) if (entry.session?.userId === userId && key !== exceptId) this.cache.delete(key);
    let q = this.db.deleteFrom('sessions').where('userId', '=', userId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    await q.execute();
  }
}
