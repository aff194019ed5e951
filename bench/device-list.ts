// Device list: per-keystroke time to filter + count + sort 50,000 devices (budget 50 ms).
//
// Builds a synthetic fleet (names, plates, attributes, groups, positions with motion, ignition,
// blocked, driver, alarm), prepares it once (name order + normalised search keys, as the client
// does when devices load), then times: typing a word letter by letter, toggling each status
// filter, switching every sort key (and again to toggle its direction), and a socket update that
// replaces 1% of the device objects. Options: --devices N (default 50000), --rounds N (default 5).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Device, Position } from '@rastro/domain/entities';
import { STATUS_FILTERS } from '@rastro/domain/device-counts';
import { buildDeviceList, EMPTY_FILTERS, prepareDevices, type DeviceFilters } from '@rastro/domain/device-filters';
import { DEFAULT_SORT, SORT_KEYS, sortReducer, type SortState } from '@rastro/domain/device-sort';
import { fmt, summary } from './lib/stats.ts';

const BUDGET_MS = 50;

export interface Fleet {
  devices: Record<number, Device>;
  positions: Record<number, Position>;
  groupNames: Map<number, string>;
}

const WORDS = ['Caminhão', 'Moto', 'Carro', 'Van', 'Ônibus', 'Trator', 'Guincho', 'Ambulância', 'Furgão', 'Pickup'];
const CITIES = ['São Paulo', 'Curitiba', 'Belém', 'Goiânia', 'Niterói', 'Maceió', 'Florianópolis', 'Vitória'];
const CATEGORIES = ['car', 'truck', 'motorcycle', 'bus', 'van', 'tractor', 'default', ''];
const STATUSES = ['online', 'offline', 'unknown'] as const;

/** A deterministic synthetic fleet. */
export function syntheticFleet(count: number): Fleet {
  let seed = 42;
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const groupNames = new Map<number, string>();
  for (let g = 1; g <= 40; g++) groupNames.set(g, `Filial ${pick(CITIES)} ${g}`);
  const devices: Record<number, Device> = {};
  const positions: Record<number, Position> = {};
  const now = Date.now();
  for (let id = 1; id <= count; id++) {
    const letters = String.fromCharCode(65 + Math.floor(rand() * 26), 65 + Math.floor(rand() * 26), 65 + Math.floor(rand() * 26));
    const status = pick(STATUSES);
    devices[id] = {
      id, name: `${pick(WORDS)} ${id}`, uniqueId: String(860_000_000_000_000 + id), status, disabled: false,
      lastUpdate: rand() < 0.05 ? null : new Date(now - Math.floor(rand() * 9e8)).toISOString(),
      positionId: id, groupId: rand() < 0.8 ? 1 + Math.floor(rand() * 40) : null, calendarId: null,
      phone: `+55 11 9${String(id).padStart(8, '0')}`, model: pick(['GT06', 'TK103', 'ST310', 'J16']), contact: null,
      category: pick(CATEGORIES), expirationTime: null,
      attributes: { plate: `${letters}${id % 10}${letters[0]}${String(id % 100).padStart(2, '0')}`, 'device.state': pick(['installed', 'stock', 'service']),
        'device.gpsBrand': pick(['Suntech', 'Teltonika', 'Concox']), 'device.technology': pick(['2G', '4G']), city: pick(CITIES) },
    };
    if (rand() < 0.95) {
      positions[id] = {
        id, deviceId: id, protocol: 'osmand', serverTime: '', deviceTime: '', fixTime: '', valid: true,
        latitude: -23.5 + rand(), longitude: -46.6 + rand(), altitude: 0, speed: rand() * 60, course: 0, accuracy: 0,
        attributes: { motion: status === 'online' && rand() < 0.5, ignition: rand() < 0.5, blocked: rand() < 0.1,
          ...(rand() < 0.3 ? { driverUniqueId: `D${id}` } : {}), ...(rand() < 0.05 ? { alarm: 'sos' } : {}) },
      };
    }
  }
  return { devices, positions, groupNames };
}

export interface BenchFigures {
  devices: number;
  prepareMs: number;
  typing: ReturnType<typeof summary>;
  status: ReturnType<typeof summary>;
  sorting: ReturnType<typeof summary>;
  socketUpdateMs: ReturnType<typeof summary>;
  /** CPU time of the same interactions. */
  cpu: { typing: ReturnType<typeof summary>; status: ReturnType<typeof summary>; sorting: ReturnType<typeof summary> };
}

/** Runs the scenario and returns the timings (milliseconds). */
export function benchDeviceList(count = 50_000, rounds = 5): BenchFigures {
  const fleet = syntheticFleet(count);
  let source = fleet.devices;
  const ctx = { positions: fleet.positions, groupNames: fleet.groupNames };
  const t = performance.now();
  prepareDevices(source, fleet.groupNames);
  const prepareMs = performance.now() - t;

  // Wall time, and this process's CPU time (user + system) for the same call: on a busy shared
  // machine the wall figure includes time spent waiting for a core; the CPU figure does not.
  const cpu: Record<'typing' | 'status' | 'sorting', number[]> = { typing: [], status: [], sorting: [] };
  let bucket: keyof typeof cpu | null = null;
  const time = (fn: () => unknown) => {
    const c0 = process.cpuUsage();
    const start = performance.now();
    fn();
    const wall = performance.now() - start;
    const c = process.cpuUsage(c0);
    if (bucket) cpu[bucket].push((c.user + c.system) / 1000);
    return wall;
  };
  const typing: number[] = [];
  const status: number[] = [];
  const sorting: number[] = [];
  const socket: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let filters: DeviceFilters = EMPTY_FILTERS;
    let sort: SortState = DEFAULT_SORT;
    bucket = 'typing';
    for (const word of ['caminhao', 'sao paulo', 'GT06']) {
      for (let i = 1; i <= word.length; i++) {
        filters = { ...filters, query: word.slice(0, i) };
        typing.push(time(() => buildDeviceList(source, filters, sort, ctx)));
      }
      for (let i = word.length - 1; i >= 0; i--) {
        filters = { ...filters, query: word.slice(0, i) };
        typing.push(time(() => buildDeviceList(source, filters, sort, ctx)));
      }
    }
    bucket = 'status';
    for (const s of [...STATUS_FILTERS, 'all' as const]) {
      filters = { ...filters, status: s };
      status.push(time(() => buildDeviceList(source, filters, sort, ctx)));
    }
    bucket = 'sorting';
    for (const key of [...SORT_KEYS, ...SORT_KEYS]) {
      sort = sortReducer(sort, key);
      sorting.push(time(() => buildDeviceList(source, filters, sort, ctx)));
      sort = sortReducer(sort, key);
      sorting.push(time(() => buildDeviceList(source, filters, sort, ctx)));
    }
    // A socket message replacing 1% of the devices (status / lastUpdate changes).
    const next = { ...source };
    for (let i = 0; i < count / 100; i++) {
      const id = 1 + ((i * 97 + r) % count);
      next[id] = { ...next[id]!, lastUpdate: new Date().toISOString() };
    }
    source = next;
    bucket = null;
    socket.push(time(() => buildDeviceList(source, filters, sort, ctx)));
  }
  return { devices: count, prepareMs, typing: summary(typing), status: summary(status), sorting: summary(sorting), socketUpdateMs: summary(socket),
    cpu: { typing: summary(cpu.typing), status: summary(cpu.status), sorting: summary(cpu.sorting) } };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = benchDeviceList(arg('devices', 50_000), arg('rounds', 5));
  const line = (label: string, s: ReturnType<typeof summary>) =>
    console.log(`${label.padEnd(34)} n=${String(s.n).padStart(4)}  p50 ${fmt(s.p50, 2).padStart(6)} ms  p99 ${fmt(s.p99, 2).padStart(6)} ms  max ${fmt(s.max, 2).padStart(6)} ms`);
  console.log(`Device list, ${figures.devices.toLocaleString('en')} devices (budget ${BUDGET_MS} ms per keystroke)`);
  console.log(`${'prepare once (name order + keys)'.padEnd(34)} ${fmt(figures.prepareMs, 1)} ms`);
  line('keystroke (filter+count+sort)', figures.typing);
  line('status filter toggle', figures.status);
  line('sort switch / direction toggle', figures.sorting);
  line('socket update (1% of devices)', figures.socketUpdateMs);
  console.log('CPU time of the same calls (not counting time spent waiting for a core):');
  line('  keystroke', figures.cpu.typing);
  line('  status filter toggle', figures.cpu.status);
  line('  sort switch / direction toggle', figures.cpu.sorting);
  const p99 = Math.max(figures.typing.p99, figures.status.p99, figures.sorting.p99);
  console.log(p99 < BUDGET_MS ? `OK: p99 of every interaction ${fmt(p99, 1)} ms < ${BUDGET_MS} ms` : `OVER BUDGET: p99 ${fmt(p99, 1)} ms (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`);
}
