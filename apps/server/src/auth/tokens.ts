// Signed tokens as Traccar makes them: payload {i: id, u: userId, e: expiry}, signed with an
// ECDSA P-256 key kept in the database, sent as base64url([sigLen][signature][payload]).
// A `p` field marks special-purpose tokens (password reset) that cannot be used to log in.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export type TokenPurpose = 'login' | 'reset';

export interface TokenPayload {
  id: string;
  userId: number;
  expiration: number;
  purpose: TokenPurpose;
}

export const DEFAULT_TOKEN_DAYS = 7;

export class TokenService {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly privateKey: crypto.KeyObject,
    private readonly publicKey: crypto.KeyObject,
  ) {}

  static async open(db: Kysely<Database>): Promise<TokenService> {
    let row = await db.selectFrom('keystore').selectAll().orderBy('id').executeTakeFirst();
    if (!row) {
      const pair = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      await db
        .insertInto('keystore')
        .values({
          publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        })
        .execute();
      row = await db.selectFrom('keystore').selectAll().orderBy('id').executeTakeFirstOrThrow();
    }
    return new TokenService(db, crypto.createPrivateKey(row.privateKey), crypto.createPublicKey(row.publicKey));
  }

  issue(userId: number, expiration: number, purpose: TokenPurpose = 'login'): string {
    const id = crypto.randomBytes(8).readBigUInt64BE().toString();
    const body: Record<string, unknown> = { i: id, u: userId, e: new Date(expiration).toISOString() };
    if (purpose !== 'login') body.p = purpose;
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const signature = crypto.sign('sha256', payload, this.privateKey);
    return Buffer.concat([Buffer.from([signature.length]), signature, payload]).toString('base64url');
  }

  /** Returns the payload of a valid, unexpired, unrevoked token of that purpose, else null. */
  async verify(token: string, purpose: TokenPurpose, now = Date.now()): Promise<TokenPayload | null> {
    const payload = this.decode(token);
    if (!payload || payload.purpose !== purpose || payload.expiration <= now) return null;
    const revoked = await this.db.selectFrom('revokedTokens').select('id').where('id', '=', payload.id).executeTakeFirst();
    return revoked ? null : payload;
  }

  /** The payload of a well-signed token, whatever its purpose, expiry or revocation. */
  inspect(token: string): TokenPayload | null {
    return this.decode(token);
  }

  async revoke(token: string): Promise<boolean> {
    const payload = this.decode(token);
    if (!payload) return false;
    await this.db
      .insertInto('revokedTokens')
      .values({ id: payload.id, expiration: payload.expiration })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return true;
  }

  /**
   * Revokes a token and tells whether this call was the one that did it: of two concurrent
   * uses of a one-time token (password reset) only one gets `true`.
   */
  async consume(token: string): Promise<boolean> {
    const payload = this.decode(token);
    if (!payload) return false;
    const row = await this.db
      .insertInto('revokedTokens')
      .values({ id: payload.id, expiration: payload.expiration })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets revocations of tokens that have expired anyway. */
  async purgeExpired(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('revokedTokens').where('expiration', '<', now).execute();
  }

  private decode(token: string): TokenPayload | null {
    if (typeof token !== 'string' || token.length < 8 || token.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(token)) {
      return null;
    }
    const bytes = Buffer.from(token, 'base64url');
    const sigLen = bytes[0];
    if (sigLen === undefined || bytes.length <= 1 + sigLen) return null;
    const signature = bytes.subarray(1, 1 + sigLen);
    const payload = bytes.subarray(1 + sigLen);
    try {
      if (!crypto.verify('sha256', payload, this.publicKey, signature)) return null;
      const body = JSON.parse(payload.toString('utf8')) as { i?: unknown; u?: unknown; e?: unknown; p?: unknown };
      const expiration = typeof body.e === 'string' ? Date.parse(body.e) : Number(body.e);
      if (typeof body.i !== 'string' || typeof body.u !== 'number' || !Number.isFinite(expiration)) return null;
      const purpose: TokenPurpose = body.p === 'reset' ? 'reset' : 'login';
      return { id: body.i, userId: body.u, expiration, purpose };
    } catch {
      return null;
    }
  }
}
