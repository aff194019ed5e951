// Cookie sessions (`JSESSIONID`), kept in the database so they survive a restart and are
// shared by several instances; a small in-memory cache spares a query per request. Whatever
// ends sessions (logout, password change, token revocation) drops them from this cache at once;
// other instances drop their cached sessions of that user when they hear the user change on
// the bus (auth/credentials.ts), so an ended session is refused everywhere at once.
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export interface Session {
  id: string;
  userId: number;
  origin: string | null;
  expiration: number | null;
  /** Opened with `?token=`: that token's id and its parents' ids, nearest first; else empty. */
  tokenIds: string[];
}

const CACHE_MS = 30_000;
const TOUCH_MS = 60_000;
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;
const TOKEN_ID = /^\d{1,20}$/;

const parseTokenIds = (text: string | null): string[] => (text ? text.split(',').filter((id) => TOKEN_ID.test(id)) : []);

export class SessionStore {
  private readonly cache = new Map<string, { session: Session | null; at: number; touched: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: number, origin: string | null, expiration: number | null, tokenIds: readonly string[] = [], now = Date.now()): Promise<Session> {
    if (!tokenIds.every((id) => TOKEN_ID.test(id))) throw new Error('invalid token id');
    const session: Session = { id: crypto.randomBytes(24).toString('base64url'), userId, origin, expiration, tokenIds: [...tokenIds] };
    await this.db
      .insertInto('sessions')
      .values({ id: session.id, userId, origin, expiration, createdAt: now, lastSeen: now, tokenIds: tokenIds.length > 0 ? tokenIds.join(',') : null })
      .execute();
    this.cache.set(session.id, { session, at: now, touched: now });
    return session;
  }

  async get(id: string, now = Date.now()): Promise<Session | null> {
    if (!SESSION_ID.test(id)) return null;
    const cached = this.cache.get(id);
    let session: Session | null;
    if (cached && now - cached.at < CACHE_MS) {
      session = cached.session;
      if (session && now - cached.touched > TOUCH_MS) {
        cached.touched = now;
        await this.db.updateTable('sessions').set({ lastSeen: now }).where('id', '=', id).execute();
      }
    } else {
      session = await this.read(id);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(id, { session, at: now, touched: cached?.touched ?? now });
    }
    if (session && session.expiration !== null && session.expiration <= now) {
      await this.destroy(id);
      return null;
    }
    return session;
  }

  /** Whether the session still exists, read from the database (not the cache). */
  async exists(id: string, now = Date.now()): Promise<boolean> {
    if (!SESSION_ID.test(id)) return false;
    const session = await this.read(id);
    return session !== null && (session.expiration === null || session.expiration > now);
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

  /** Ends every session opened with the token `tokenId` or with a token made from it. */
  async destroyByToken(tokenId: string): Promise<void> {
    if (!TOKEN_ID.test(tokenId)) return;
    for (const [key, entry] of this.cache) if (entry.session?.tokenIds.includes(tokenId)) this.cache.delete(key);
    // Ids are digits only, so the pattern cannot match across ids or carry wildcards.
    await this.db
      .deleteFrom('sessions')
      .where(sql<string>`',' || ${sql.ref('tokenIds')} || ','`, 'like', `%,${tokenId},%`)
      .execute();
  }

  /** Drops the cached sessions of a user: the next request reads them again (changes made elsewhere). */
  forgetUser(userId: number): void {
    for (const [key, entry] of this.cache) if (entry.session?.userId === userId) this.cache.delete(key);
  }

  private async read(id: string): Promise<Session | null> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['id', 'userId', 'origin', 'expiration', 'tokenIds'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: row.id, userId: row.userId, origin: row.origin, expiration: row.expiration, tokenIds: parseTokenIds(row.tokenIds) } : null;
  }
}
