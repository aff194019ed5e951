import { describe, expect, it } from 'vitest';
import type { DeviceCache, DeviceEntry } from './device-cache.ts';
import type { PositionWriter } from './position-writer.ts';
import { StatusMonitor } from './device-status.ts';

function entry(id: number, status: DeviceEntry['status'], lastUpdate: number | null): DeviceEntry {
  return { id, uniqueId: String(id), status, lastUpdate, positionId: null, last: null, lastLoaded: true } as DeviceEntry;
}

describe('StatusMonitor', () => {
  it('marks online devices silent for the timeout as unknown and hands only them to the writer', () => {
    const now = 1_000_000;
    const entries = [entry(1, 'online', now - 600_000), entry(2, 'online', now - 599_999), entry(3, 'offline', now - 10_000_000), entry(4, null, null)];
    const touched: number[] = [];
    const writer = { touch: (e: DeviceEntry) => (touched.push(e.id), Promise.resolve()) } as unknown as PositionWriter;
    const cache = { entries: () => entries.values() } as unknown as DeviceCache;
    const monitor = new StatusMonitor(cache, writer, 600_000, () => now);
    expect(monitor.sweep()).toBe(1);
    expect(entries.map((e) => e.status)).toEqual(['unknown', 'online', 'offline', null]);
    expect(touched).toEqual([1]);
    // Already unknown: not touched again.
    expect(monitor.sweep(now + 1)).toBe(1);
    expect(touched).toEqual([1, 2]);
    expect(monitor.sweep(now + 10)).toBe(0);
  });
});
