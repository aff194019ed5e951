// Signed tokens as Traccar makes them: payload {i: id, u: userId, e: expiry}, signed with an
// ECDSA P-256 key kept in the database, sent as base64url([sigLen][signature][payload]).
// A `p` field marks special-purpose tokens (password reset) that cannot be used to log in.
// Our own fields, which Traccar's clients ignore: `t` the issue instant (tokens issued before a
// password change die, auth/login-tokens.ts) and `a` the ids of the tokens this one was made
// from, nearest first (revoking any of them kills it; at most MAX_TOKEN_PARENTS).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export type TokenPurpose = 'login' | 'reset';

export interface TokenPayload {
  id: string;
  userId: number;
  expiration: number;
  purpose: TokenPurpose;
  /** When it was issued; null for tokens made before issue times were recorded. */
  issuedAt: number | null;
  /** Ids of the tokens it was made from, nearest first. */
  parents: string[];
}

export interface IssueOptions {
  /** Ids of the tokens the caller logged in with, nearest first (see `tokenIdsOf`). */
  parents?: readonly string[];
  now?: number;
}

/** How many ancestors a token may carry: a chain is checked in one query, so it stays short. */
export const MAX_TOKEN_PARENTS = 4;
export const DEFAULT_TOKEN_DAYS = 7;

/** Token ids are decimal numbers (Traccar's random longs); anything else is refused. */
const TOKEN_ID = /^\d{1,20}$/;

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

  issue(userId: number, expiration: number, purpose: TokenPurpose = 'login', options: IssueOptions = {}): string {
    return this.issueToken(userId, expiration, purpose, options).token;
  }

  /** Signs a new token and answers it with its payload. */
  issueToken(userId: number, expiration: number, purpose: TokenPurpose = 'login', options: IssueOptions = {}): { token: string; payload: TokenPayload } {
    const parents = [...(options.parents ?? [])];
    if (parents.length > MAX_TOKEN_PARENTS) throw new Error(`a token carries at most ${MAX_TOKEN_PARENTS} parents`);
    const id = crypto.randomBytes(8).readBigUInt64BE().toString();
    const issuedAt = options.now ?? Date.now();
    const body: Record<string, unknown> = { i: id, u: userId, e: new Date(expiration).toISOString(), t: issuedAt };
    if (purpose !== 'login') body.p = purpose;
    if (parents.length > 0) body.a = parents;
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const signature = crypto.sign('sha256', payload, this.privateKey);
    return {
      token: Buffer.concat([Buffer.from([signature.length]), signature, payload]).toString('base64url'),
      payload: { id, userId, expiration, purpose, issuedAt, parents },
    };
  }

  /**
   * Returns the payload of a valid, unexpired token of that purpose none of whose chain (the
   * token and the tokens it was made from) is revoked, else null.
   */
  async verify(token: string, purpose: TokenPurpose, now = Date.now()): Promise<TokenPayload | null> {
    const payload = this.decode(token);
    if (!payload || payload.purpose !== purpose || payload.expiration <= now) return null;
    const revoked = await this.db.selectFrom('revokedTokens').select('id').where('id', 'in', [payload.id, ...payload.parents]).executeTakeFirst();
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
      const body = JSON.parse(payload.toString('utf8')) as { i?: unknown; u?: unknown; e?: unknown; p?: unknown; t?: unknown; a?: unknown };
      const expiration = typeof body.e === 'string' ? Date.parse(body.e) : Number(body.e);
      if (typeof body.i !== 'string' || !TOKEN_ID.test(body.i) || typeof body.u !== 'number' || !Number.isFinite(expiration)) return null;
      const purpose: TokenPurpose = body.p === 'reset' ? 'reset' : 'login';
      const issuedAt = typeof body.t === 'number' && Number.isFinite(body.t) ? body.t : null;
      const parents = body.a === undefined ? [] : body.a;
      if (!Array.isArray(parents) || parents.length > MAX_TOKEN_PARENTS || !parents.every((p) => typeof p === 'string' && TOKEN_ID.test(p))) return null;
      return { id: body.i, userId: body.u, expiration, purpose, issuedAt, parents: parents as string[] };
    } catch {
      return null;
    }
  }
}
