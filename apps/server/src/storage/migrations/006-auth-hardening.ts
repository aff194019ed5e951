import type { Kysely, Migration } from 'kysely';

// Authentication hardening (auth/): the per-user credential state and the token a cookie
// session was opened with.
//  - `userAuthState`: `tokensNotBefore` kills every login token issued before a password
//    change or reset; `resetTokenId` is the only reset token that still works, so issuing a new
//    one ends the older ones and using it ends it. A separate table rather than columns on
//    `users`: user rows travel through the API and every feature, these values never should.
//  - `sessions.tokenIds`: the ids of the token a session was opened with (`?token=`) and of its
//    parents, so revoking any of them ends the session.
/* eslint-disable @typescript-eslint/no-explicit-any */
export const authHardening: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('userAuthState')
      .addColumn('userId', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('tokensNotBefore', 'bigint')
      .addColumn('resetTokenId', 'text')
      .execute();
    await db.schema.alterTable('sessions').addColumn('tokenIds', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('sessions').dropColumn('tokenIds').execute();
    await db.schema.dropTable('userAuthState').execute();
  },
};
