import type { Kysely, Migration } from 'kysely';

// The visibility walk joins groups on their parent (`groups.groupId`) for every list and
// permission check; without an index each join scans the whole table.
/* eslint-disable @typescript-eslint/no-explicit-any */
export const groupParentIndex: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('groups_parent').on('groups').column('groupId').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('groups_parent').execute();
  },
};
