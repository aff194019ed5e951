// An engine stop is never written to a vehicle running faster than a limit: cutting the engine
// at speed takes power steering and brakes assistance away. The limit is km/h: the server
// attribute `engineStop.maxSpeed` when set (changed from the settings screen, no restart),
// else RASTRO_ENGINE_STOP_MAX_SPEED (default 20). The speed is the device's latest position's.
import { nativeAction } from '@rastro/domain/command-log';
import { knotsToKmh } from '@rastro/domain/units';
import type { AppContext } from '../context.ts';
import { asNumber } from '../events/attribute-lookup.ts';
import { parseAttributes } from '../http/json.ts';
import { getServerRow } from '../server-info/server-repo.ts';

/** Server attribute that overrides RASTRO_ENGINE_STOP_MAX_SPEED (km/h). */
export const ENGINE_STOP_MAX_SPEED_ATTRIBUTE = 'engineStop.maxSpeed';

export const isEngineStop = (command: { type: string; attributes: Record<string, unknown> }): boolean =>
  nativeAction(command) === 'engineStop';

/** The limit in km/h: the server attribute when it is a number ≥ 0, else the configured one. */
export function engineStopLimitKmh(serverAttributes: Record<string, unknown>, configured: number): number {
  const value = asNumber(serverAttributes[ENGINE_STOP_MAX_SPEED_ATTRIBUTE]);
  return value !== undefined && value >= 0 ? value : configured;
}

/** How long the limit read from the server row is used before it is read again. */
const LIMIT_REFRESH_MS = 5_000;

export class EngineStopGuard {
  /** The limit last read (km/h): the queue decides from it synchronously, on every message's take. */
  private limit: number;
  private limitAt = 0;
  private refreshing: Promise<number> | null = null;

  constructor(private readonly ctx: AppContext) {
    this.limit = ctx.config.commands.engineStopMaxSpeed;
  }

  /** The limit now (km/h), read from the server row (itself cached for a few seconds). */
  async limitKmh(): Promise<number> {
    this.refreshing ??= getServerRow(this.ctx)
      .then((server) => {
        this.limit = engineStopLimitKmh(parseAttributes(server.attributes), this.ctx.config.commands.engineStopMaxSpeed);
        this.limitAt = Date.now();
        return this.limit;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /**
   * The decision from memory alone: true (too fast), false (slow enough), or null when this
   * instance holds no latest position of the device. A limit older than a few seconds is
   * used once more while it is read again in the background.
   */
  holdsNow(deviceId: number): boolean | null {
    const entry = this.ctx.processing?.devices.byId(deviceId);
    const last = entry?.lastLoaded ? entry.last : null;
    if (!last) return null;
    if (Date.now() - this.limitAt > LIMIT_REFRESH_MS) {
      this.limitKmh().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'could not read the engine stop speed limit'));
    }
    return knotsToKmh(last.speed) > this.limit;
  }

  /**
   * The speed (knots) of the device's latest position, or null when it never reported.
   * `storedPositionId` is the latest position the database knows (the device row): the
   * pipeline's in-memory position is used when it is at least as new (it is the newest on
   * the instance that receives the device's messages), else the stored one is read.
   */
  async latestSpeed(deviceId: number, storedPositionId: number | null = null): Promise<number | null> {
    const entry = this.ctx.processing?.devices.byId(deviceId);
    const cached = entry?.lastLoaded ? entry.last : null;
    if (cached && (storedPositionId === null || cached.id === null || cached.id >= storedPositionId)) return cached.speed;
    const positionId = storedPositionId ?? entry?.positionId ?? null;
    if (positionId === null) return null;
    const row = await this.ctx.storage.db.selectFrom('positions').select('speed').where('id', '=', positionId).executeTakeFirst();
    return row ? Number(row.speed) : null;
  }

  /** True when an engine stop must wait: the vehicle's latest speed is above the limit (read fresh). */
  async holds(deviceId: number, storedPositionId: number | null = null): Promise<boolean> {
    const speed = await this.latestSpeed(deviceId, storedPositionId);
    if (speed === null) return false;
    return knotsToKmh(speed) > (await this.limitKmh());
  }
}
