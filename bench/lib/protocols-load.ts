// Load generator of the protocols benchmark (bench/protocols.ts), run as a child process so the
// server is measured alone: holds its share of the tracker connections (the simulator's
// Tracker and encoders, apps/server/src/sim/), and in each phase paces reports per protocol at
// the rates the parent asks, round robin over that protocol's connections.
//
// Every fix gets its own second on the tracker's clock (t0 + n s), so a position pushed on the
// socket is known by (deviceId, fixTime): the child reports the key and send time of each fix
// it wrote, the parent matches them with what its socket received.
import type { SimProtocol, TrackerFix } from '../../apps/server/src/sim/encoders/encoder.ts';
import { ENCODERS } from '../../apps/server/src/sim/encoders/encoders.ts';
import { Tracker } from '../../apps/server/src/sim/tracker.ts';
import { newTrackerStats, type TrackerStats } from '../../apps/server/src/sim/tracker-stats.ts';
import { vehicleTrack } from '../../apps/server/src/sim/vehicle-track.ts';

export interface LoadDevice {
  uniqueId: string;
  protocol: SimProtocol;
  deviceId: number;
}

export type ToLoad =
  | { type: 'init'; host: string; ports: Record<SimProtocol, number>; devices: LoadDevice[]; t0: number; connectsPerTick: number }
  | { type: 'phase'; name: string; seconds: number; rates: Partial<Record<SimProtocol, number>> }
  | { type: 'finish'; drainSeconds: number };

export interface PhaseProtocol {
  /** Fixes written in the phase. */
  fixes: number;
  /** Milliseconds from each acknowledged frame's write to its ack. */
  ackMs: number[];
  /** Fixes waiting in the trackers (unsent or unacknowledged) at the end of the phase. */
  backlog: number;
  /** (key, send time) pairs of the fixes written: key = deviceId × 2^22 + seconds after t0. */
  keys: number[];
  connected: number;
}

export interface FinalProtocol {
  ackable: number;
  acked: number;
  awaiting: number;
  errors: number;
  errorKinds: Array<[string, number]>;
  connects: number;
  connected: number;
}

export type FromLoad =
  | { type: 'connected'; connected: Partial<Record<SimProtocol, number>>; trackers: number; seconds: number }
  | { type: 'phase-done'; name: string; protocols: Partial<Record<SimProtocol, PhaseProtocol>> }
  | { type: 'final'; protocols: Partial<Record<SimProtocol, FinalProtocol>> };

/** Seconds of fix time per key: up to 2^22 fixes per device (48 days at one a second). */
export const KEY_SPAN = 2 ** 22;
export const fixKey = (deviceId: number, fixTime: number, t0: number): number => deviceId * KEY_SPAN + Math.round((fixTime - t0) / 1000);

const TICK_MS = 5;
const send = (m: FromLoad) => process.send!(m);
const wall = (at: number) => performance.timeOrigin + at;

interface Group {
  trackers: Tracker[];
  stats: TrackerStats;
  cursor: number;
  credit: number;
  phase: PhaseProtocol;
}

const newPhase = (): PhaseProtocol => ({ fixes: 0, ackMs: [], backlog: 0, keys: [], connected: 0 });

function run(init: Extract<ToLoad, { type: 'init' }>): void {
  const groups = new Map<SimProtocol, Group>();
  const deviceIds = new Map<Tracker, number>();
  const startedAt = performance.now();
  const all: Tracker[] = [];
  for (const [i, d] of init.devices.entries()) {
    let group = groups.get(d.protocol);
    if (!group) {
      group = { trackers: [], stats: newTrackerStats(), cursor: 0, credit: 0, phase: newPhase() };
      groups.set(d.protocol, group);
    }
    const g = group;
    let second = 0;
    const tracker = new Tracker({
      encoder: ENCODERS[d.protocol], uniqueId: d.uniqueId, host: init.host, port: init.ports[d.protocol], transport: 'tcp',
      stats: g.stats, vehicle: vehicleTrack(i, d.uniqueId, init.t0), clock: () => init.t0 + 1000 * ++second,
      ackTimeoutMs: 30_000,
      hooks: {
        sent(t, fixes: readonly TrackerFix[], at) {
          g.phase.fixes += fixes.length;
          const id = deviceIds.get(t)!;
          for (const f of fixes) g.phase.keys.push(fixKey(id, f.time, init.t0), wall(at));
        },
        acked(_t, sentAt, at) {
          g.phase.ackMs.push(at - sentAt);
        },
      },
    });
    deviceIds.set(tracker, d.deviceId);
    g.trackers.push(tracker);
    all.push(tracker);
  }

  // Connect in batches (a listen backlog is finite), then say how many are held.
  let started = 0;
  const connectTimer = setInterval(() => {
    for (let n = 0; n < init.connectsPerTick && started < all.length; n++) all[started++]!.start();
    const connected = [...groups.values()].reduce((s, g) => s + g.stats.connected, 0);
    const waited = performance.now() - startedAt;
    if ((started === all.length && connected === all.length) || waited > 90_000) {
      clearInterval(connectTimer);
      send({
        type: 'connected', trackers: all.length, seconds: waited / 1000,
        connected: Object.fromEntries([...groups].map(([p, g]) => [p, g.stats.connected])),
      });
    }
  }, 20);

  const ackTimer = setInterval(() => {
    const now = performance.now();
    for (const t of all) t.checkAcks(now);
  }, 1000);

  process.on('message', (message: ToLoad) => {
    if (message.type === 'phase') {
      for (const g of groups.values()) {
        g.phase = newPhase();
        g.credit = 0;
      }
      const until = performance.now() + message.seconds * 1000;
      let last = performance.now();
      const pacer = setInterval(() => {
        const now = Math.min(performance.now(), until);
        const dt = (now - last) / 1000;
        last = now;
        for (const [protocol, g] of groups) {
          g.credit += (message.rates[protocol] ?? 0) * dt;
          const n = Math.floor(g.credit);
          g.credit -= n;
          for (let k = 0; k < n; k++) g.trackers[g.cursor++ % g.trackers.length]!.report();
        }
        if (now >= until) {
          clearInterval(pacer);
          send({
            type: 'phase-done', name: message.name,
            protocols: Object.fromEntries([...groups].map(([p, g]) => {
              g.phase.backlog = g.trackers.reduce((s, t) => s + t.backlog, 0);
              g.phase.connected = g.stats.connected;
              return [p, g.phase];
            })),
          });
          for (const g of groups.values()) g.phase = newPhase();
        }
      }, TICK_MS);
    } else if (message.type === 'finish') {
      // Give the last acks time to arrive, then count what never came.
      const deadline = performance.now() + message.drainSeconds * 1000;
      const drain = setInterval(() => {
        const awaiting = all.reduce((s, t) => s + t.awaitingAcks, 0);
        if (awaiting > 0 && performance.now() < deadline) return;
        clearInterval(drain);
        clearInterval(ackTimer);
        send({
          type: 'final',
          protocols: Object.fromEntries([...groups].map(([p, g]) => [p, {
            ackable: g.stats.ackable, acked: g.stats.acked, awaiting: g.trackers.reduce((s, t) => s + t.awaitingAcks, 0),
            errors: g.stats.errors, errorKinds: [...g.stats.errorKinds], connects: g.stats.connects, connected: g.stats.connected,
          } satisfies FinalProtocol])),
        });
        for (const t of all) t.stop();
        setTimeout(() => process.exit(0), 200);
      }, 50);
    }
  });
}

process.once('message', (message: ToLoad) => {
  if (message.type === 'init') run(message);
});
