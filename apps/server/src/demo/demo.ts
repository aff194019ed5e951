// The demo fleet: on a fresh database, a dozen vehicles drive around São Paulo so a new
// installation has something to show. They report as real OsmAnd (Traccar Client) HTTP
// requests to our own ingest port, so the demo goes through decoding, processing, storage
// and the sockets exactly like a real tracker. On later starts the demo vehicles carry on
// from where they were; a database that already has other devices gets no demo.
import type { AppContext } from '../context.ts';
import { DEMO_FLEET } from './fleet.ts';
import { countDevices, createDemoDevices, findDemoDevices, lastCoordinates, type DemoDeviceRow } from './demo-repo.ts';
import { Polyline } from './geo.ts';
import { routeByKey } from './sp-routes.ts';
import { VehicleSim, osmandQuery } from './vehicle-sim.ts';

export interface DemoOptions {
  /** Bound OsmAnd port; 0 = ingest disabled, so no demo. */
  osmandPort: number;
  /** Milliseconds between two reports of each vehicle (default: config.demoIntervalMs). */
  intervalMs?: number;
  random?: () => number;
}

export interface Demo {
  readonly devices: readonly DemoDeviceRow[];
  /** Sends one report per vehicle now (the timer calls it; tests may too). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

const REQUEST_TIMEOUT_MS = 10_000;

/** Starts the demo when it applies; registers its own stop in `ctx.onClose`. */
export async function startDemo(ctx: AppContext, options: DemoOptions): Promise<Demo | null> {
  if (!ctx.config.demo) return null;
  if (!options.osmandPort) {
    ctx.log.info('demo fleet is off: the OsmAnd port is disabled (RASTRO_OSMAND_PORT=0)');
    return null;
  }
  if (ctx.config.redisUrl) {
    // Every instance would drive the same vehicles and their tracks would interleave.
    ctx.log.info('demo fleet is off: several instances share this database (REDIS_URL is set)');
    return null;
  }
  const db = ctx.storage.db;
  let devices = await findDemoDevices(db);
  if (devices.length === 0) {
    if ((await countDevices(db)) > 0) {
      ctx.log.info('demo fleet not created: the database already has devices');
      return null;
    }
    devices = await createDemoDevices(db, DEMO_FLEET);
    for (const d of devices) ctx.changes.publish({ kind: 'device', id: d.id });
    ctx.changes.publish({ kind: 'permissions' });
    ctx.log.info({ vehicles: devices.length }, 'demo fleet created');
  }

  const now = Date.now();
  const last = await lastCoordinates(db, devices.map((d) => d.id));
  const sims: VehicleSim[] = [];
  for (const device of devices) {
    const vehicle = DEMO_FLEET.find((v) => v.uniqueId === device.uniqueId);
    if (!vehicle) continue; // a `demo-…` device someone added by hand: not ours to drive
    const route = routeByKey(vehicle.route);
    const where = last.get(device.id);
    const resumeAt = where ? new Polyline(route.points).locate(where) : undefined;
    sims.push(new VehicleSim(vehicle, route, now, options.random, resumeAt));
  }

  const base = ingestBase(ctx.config.host, options.osmandPort);
  const intervalMs = options.intervalMs ?? ctx.config.demoIntervalMs;
  const aborter = new AbortController();
  let warnedAt = 0;
  const warn = (message: string, detail: object) => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    ctx.log.warn(detail, message);
  };

  const send = async (sim: VehicleSim): Promise<void> => {
    const query = osmandQuery(sim.vehicle.uniqueId, sim.step(Date.now()));
    try {
      const res = await fetch(`${base}/?${query}`, {
        signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      await res.arrayBuffer();
      if (res.status !== 200) warn('demo fleet: the ingest port refused a report', { status: res.status, uniqueId: sim.vehicle.uniqueId });
    } catch (error) {
      if (!aborter.signal.aborted) warn('demo fleet: could not reach the ingest port', { err: error });
    }
  };

  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const tick = async (): Promise<void> => {
    await Promise.all(sims.map(send));
  };
  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs).unref();
    });
  };
  loop();
  ctx.log.info({ vehicles: sims.length, intervalMs }, 'demo fleet driving');

  const demo: Demo = {
    devices,
    tick,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      aborter.abort();
      await running;
    },
  };
  ctx.onClose.push(() => demo.stop());
  return demo;
}

/** Where to reach our own ingest port: loopback when it listens on every interface. */
function ingestBase(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `http://127.0.0.1:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
