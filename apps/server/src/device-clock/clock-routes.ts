// GET /api/devices/{id}/clock (Rastro, not Traccar): is the device's clock off? The device
// detail asks it to warn and say how to fix it. Computed from the stored fixes on every call
// (a few indexed reads), so any instance answers the same and nothing is kept in memory.
import type { FastifyInstance } from 'fastify';
import { CLOCK_STABLE_SPAN_MS, judgeClock, type DeviceClock } from '@rastro/domain/device-clock';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { accessDenied, notFound } from '../http/errors.ts';
import { parseAttributes, toIso } from '../http/json.ts';
import { pathId } from '../access/list-params.ts';
import { attributeLookup } from '../events/attribute-lookup.ts';
import { readSettings } from '../processing/steps/clock-settings.ts';
import { PositionsRepo } from '../positions/positions-repo.ts';
import { DevicesRepo } from '../devices/devices-repo.ts';
import { ClockRepo } from './clock-repo.ts';

export async function deviceClockRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const repo = new ClockRepo(ctx.storage.db);
  const positions = new PositionsRepo(ctx.storage.db);
  const devices = new DevicesRepo(ctx.storage.db);

  app.get<{ Params: { id: string } }>('/api/devices/:id/clock', async (req): Promise<DeviceClock> => {
    const user = requireUser(req);
    const id = pathId(req.params.id);
    if (!(await ctx.visibility.canSeeDevice(user, id))) throw accessDenied.device();
    const device = await devices.findById(id);
    if (!device) throw notFound('Device not found');

    const lookup = attributeLookup(ctx);
    await lookup.start();
    const settings = readSettings(lookup, { json: { attributes: parseAttributes(device.attributes), groupId: device.groupId } });
    const now = Date.now();
    const finite = Number.isFinite(settings.futureMs);
    const [future, latest] = await Promise.all([
      finite ? repo.newestAfter(id, now + settings.futureMs) : undefined,
      positions.latestOf(id),
    ]);
    const earlier = latest ? await repo.newestUntil(id, latest.fixTime - CLOCK_STABLE_SPAN_MS) : undefined;
    const { state, sample } = judgeClock({ future: future ?? null, latest: latest ?? null, earlier: earlier ?? null, tolerance: settings.futureMs });
    return {
      deviceId: id,
      state,
      offset: sample ? sample.fixTime - sample.serverTime : null,
      fixTime: sample ? toIso(sample.fixTime) : null,
      serverTime: sample ? toIso(sample.serverTime) : null,
      tolerance: finite ? settings.futureMs : null,
      timezone: settings.zoneText,
      timezoneValid: settings.zoneText === null || settings.zone !== null,
    };
  });
}
