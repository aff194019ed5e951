// The stored fixes the clock check needs, each one indexed read on positions(deviceId, fixTime).
import type { Kysely } from 'kysely';
import type { ClockSample } from '@rastro/domain/device-clock';
import type { Database } from '../storage/schema.ts';

export class ClockRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The device's newest fix dated after `after` (still in the future when `after` is ahead of now). */
  newestAfter(deviceId: number, after: number): Promise<ClockSample | undefined> {
    return this.newest(deviceId, '>', after);
  }

  /** The device's newest fix dated at or before `atMost`. */
  newestUntil(deviceId: number, atMost: number): Promise<ClockSample | undefined> {
    return this.newest(deviceId, '<=', atMost);
  }

  private newest(deviceId: number, op: '>' | '<=', bound: number): Promise<ClockSample | undefined> {
    return this.db
      .selectFrom('positions')
      .select(['fixTime', 'serverTime'])
      .where('deviceId', '=', deviceId)
      .where('fixTime', op, bound)
      .orderBy('fixTime', 'desc')
      .limit(1)
      .executeTakeFirst();
  }
}
