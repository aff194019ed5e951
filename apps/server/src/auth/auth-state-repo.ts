// Data access for the per-user credential state (table `userAuthState`, migration 006): the
// instant before which login tokens are dead, and the one reset token that may still be used.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export class AuthStateRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Login tokens of the user issued before this instant are dead; null = none. */
  async tokensNotBefore(userId: number): Promise<number | null> {
    const row = await this.db.selectFrom('userAuthState').select('tokensNotBefore').where('userId', '=', userId).executeTakeFirst();
    return row?.tokensNotBefore ?? null;
  }

  /** Makes `tokenId` the user's only usable reset token (older ones die). */
  async setResetToken(userId: number, tokenId: string): Promise<void> {
    await this.db
      .insertInto('userAuthState')
      .values({ userId, tokensNotBefore: null, resetTokenId: tokenId })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ resetTokenId: tokenId }))
      .execute();
  }

  /**
   * Uses up the reset token `tokenId` if it is the user's current one; true for the one caller
   * that did (of two concurrent uses, only one wins).
   */
  async takeResetToken(userId: number, tokenId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('userAuthState')
      .set({ resetTokenId: null })
      .where('userId', '=', userId)
      .where('resetTokenId', '=', tokenId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The password changed: tokens issued until now die, and so does any pending reset token. */
  async passwordChanged(userId: number, now: number): Promise<void> {
    await this.db
      .insertInto('userAuthState')
      .values({ userId, tokensNotBefore: now, resetTokenId: null })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ tokensNotBefore: now, resetTokenId: null }))
      .execute();
  }
}
