// Where a flush of the position writer goes. A flush is plain data (flat value lists, JSON
// already serialised) so it can run on the main connection (PostgreSQL: pg is asynchronous)
// or be posted to the SQLite writer thread (sqlite-write-store.ts), which keeps SQLite's
// synchronous work off the event loop. Either way: one transaction, ids back in order.
import type { AppContext } from '../context.ts';
import {
  DEVICE_FIELDS, EVENT_POSITION, EVENT_WIDTH, MOTION_STATE_REFS, MOTION_STATE_WIDTH, POSITION_WIDTH, SEGMENT_REFS, SEGMENT_WIDTH,
  resolvePositionRef, type FlushRequest, type FlushResult,
} from './writer-protocol.ts';
import { CompiledQuery } from 'kysely';
import {
  deviceColumnUpdates, insertEventsQuery, insertPositionsQuery, insertSegmentsQuery, updateDevicesQuery, upsertMotionStatesQuery,
  type DeviceStateRow,
} from './writer-sql.ts';

export type { FlushRequest, FlushResult };

export interface WriteStore {
  /** Runs the flush in one transaction; resolves after commit. */
  commit(request: FlushRequest): Promise<FlushResult>;
  /** After the last flush (shutdown). */
  close(): Promise<void>;
}

/** Rows per statement: 16 position columns × 1,000 stays under PostgreSQL's parameter limit. */
const CHUNK = 1000;

/** Ids handed out in insertion order; sorting pairs them independently of the order RETURNING lists them in. */
function sortedIds(rows: ReadonlyArray<{ id: number }>, expected: number, what: string): number[] {
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  if (ids.length !== expected) throw new Error(`inserted ${expected} ${what}, got ${ids.length} ids`);
  return ids;
}

/** Runs flushes through Kysely on the main connection (multi-row statements). */
export class KyselyWriteStore implements WriteStore {
  constructor(private readonly ctx: AppContext) {}

  async commit(request: FlushRequest): Promise<FlushResult> {
    const dialect = this.ctx.storage.dialect;
    const positionIds: number[] = [];
    const eventIds: number[] = [];
    await this.ctx.storage.db.transaction().execute(async (trx) => {
      const positions = request.positions;
      for (let start = 0; start < positions.length; start += CHUNK * POSITION_WIDTH) {
        const chunk = positions.slice(start, start + CHUNK * POSITION_WIDTH);
        const returned = await trx.executeQuery(insertPositionsQuery(dialect, chunk));
        positionIds.push(...sortedIds(returned.rows, chunk.length / POSITION_WIDTH, 'positions'));
      }
      if (request.events.length > 0) {
        const events = request.events.slice();
        for (let k = EVENT_POSITION; k < events.length; k += EVENT_WIDTH) events[k] = resolvePositionRef(events[k], positionIds) ?? 0;
        for (let start = 0; start < events.length; start += CHUNK * EVENT_WIDTH) {
          const chunk = events.slice(start, start + CHUNK * EVENT_WIDTH);
          const returned = await trx.executeQuery(insertEventsQuery(dialect, chunk));
          eventIds.push(...sortedIds(returned.rows, chunk.length / EVENT_WIDTH, 'events'));
        }
      }
      for (const [values, width, refs, query] of [
        [request.segments, SEGMENT_WIDTH, SEGMENT_REFS, insertSegmentsQuery],
        [request.motionStates, MOTION_STATE_WIDTH, MOTION_STATE_REFS, upsertMotionStatesQuery],
      ] as const) {
        if (!values || values.length === 0) continue;
        const resolved = values.slice();
        for (let k = 0; k < resolved.length; k += width) for (const r of refs) resolved[k + r] = resolvePositionRef(resolved[k + r], positionIds);
        for (let start = 0; start < resolved.length; start += CHUNK * width) {
          await trx.executeQuery(query(dialect, resolved.slice(start, start + CHUNK * width)));
        }
      }
      const devices = request.devices;
      const states: DeviceStateRow[] = [];
      for (let k = 0; k < devices.length; k += DEVICE_FIELDS) {
        const latest = devices[k + 4] as number;
        states.push({
          id: devices[k] as number,
          status: devices[k + 1] as string | null,
          lastUpdate: devices[k + 2] as number | null,
          positionId: latest >= 0 ? positionIds[latest]! : (devices[k + 3] as number | null),
        });
      }
      for (let start = 0; start < states.length; start += CHUNK) {
        await trx.executeQuery(updateDevicesQuery(dialect, states.slice(start, start + CHUNK)));
      }
      if (request.deviceColumns && request.deviceColumns.length > 0) {
        for (const u of deviceColumnUpdates(dialect, request.deviceColumns)) await trx.executeQuery(CompiledQuery.raw(u.sql, u.params));
      }
    });
    return { positionIds, eventIds };
  }

  async close(): Promise<void> {}
}
