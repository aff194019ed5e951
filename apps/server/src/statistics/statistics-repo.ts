// Stored statistics (migration 010): adding an instance's delta to a day's row, and reading
// the days of a period. A day's row is the sum of what every instance added; its active
// users and devices are recounted from the ids seen that day, so an id two instances (or a
// restart) both saw counts once.
import type { Kysely, Selectable } from 'kysely';
import type { Database, StatisticsTable } from '../storage/schema.ts';
import { writeTransaction } from '../storage/write-transaction.ts';
import { COUNTERS, DAY_MS, type DayDelta } from './day-counts.ts';

type Db = Kysely<Database>;

export type StatisticsRow = Selectable<StatisticsTable>;

/** Ids written per statement (4 parameters each). */
const SEEN_BATCH = 500;

/** Adds `delta` to its day's row (made when missing), in one transaction. */
export async function addToDay(db: Db, delta: DayDelta): Promise<void> {
  const day = delta.captureTime;
  await writeTransaction(db, async (trx) => {
    // The row first: on PostgreSQL its lock makes another instance's flush of the same day
    // wait until this one commits, so each recount below sees the other's ids.
    await trx
      .insertInto('statistics')
      .values({ captureTime: day, ...delta.counts, activeUsers: 0, activeDevices: 0, protocols: null, attributes: '{}' })
      .onConflict((oc) =>
        oc.column('captureTime').doUpdateSet((eb) =>
          Object.fromEntries(COUNTERS.map((c) => [c, eb(`statistics.${c}`, '+', eb.ref(`excluded.${c}`))])),
        ),
      )
      .execute();
    const seen = [
      ...delta.users.map((id) => ({ captureTime: day, kind: 'user' as const, objectId: id, protocol: null })),
      ...delta.devices.map(([id, protocol]) => ({ captureTime: day, kind: 'device' as const, objectId: id, protocol })),
    ];
    if (seen.length === 0) return;
    for (let i = 0; i < seen.length; i += SEEN_BATCH) {
      await trx
        .insertInto('statisticsSeen')
        .values(seen.slice(i, i + SEEN_BATCH))
        .onConflict((oc) => oc.columns(['captureTime', 'kind', 'objectId']).doUpdateSet((eb) => ({ protocol: eb.ref('excluded.protocol') })))
        .execute();
    }
    const users = await trx
      .selectFrom('statisticsSeen')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('captureTime', '=', day)
      .where('kind', '=', 'user')
      .executeTakeFirstOrThrow();
    const protocols = await trx
      .selectFrom('statisticsSeen')
      .select((eb) => ['protocol', eb.fn.countAll<number>().as('n')])
      .where('captureTime', '=', day)
      .where('kind', '=', 'device')
      .groupBy('protocol')
      .orderBy('protocol')
      .execute();
    const byProtocol = Object.fromEntries(protocols.map((p) => [p.protocol ?? '', Number(p.n)]));
    const devices = protocols.reduce((sum, p) => sum + Number(p.n), 0);
    await trx
      .updateTable('statistics')
      .set({ activeUsers: Number(users.n), activeDevices: devices, protocols: devices > 0 ? JSON.stringify(byProtocol) : null })
      .where('captureTime', '=', day)
      .execute();
  });
}

/** Forgets the ids of days that ended `keepDays` or more before `dayEnd` (late flushes of recent days still recount right). */
export async function pruneSeen(db: Db, dayEnd: number, keepDays = 3): Promise<void> {
  await db.deleteFrom('statisticsSeen').where('captureTime', '<', dayEnd - keepDays * DAY_MS).execute();
}

/** Days with from <= captureTime <= to that have ended by `now`, oldest first (the running day is not shown). */
export function statisticsIn(db: Db, from: number, to: number, now: number): Promise<StatisticsRow[]> {
  return db
    .selectFrom('statistics')
    .selectAll()
    .where('captureTime', '>=', from)
    .where('captureTime', '<=', Math.min(to, now))
    .orderBy('captureTime')
    .execute();
}
