import { describe, expect, it } from 'vitest';
import type { Device, Position } from './entities.ts';
import { DEFAULT_SORT, lastUpdateOrder, sortDevices, sortReducer, stateFlag } from './device-sort.ts';

const dev = (id: number, name: string, lastUpdate: string | null = null): Device => ({
  id, name, uniqueId: `u${id}`, status: 'online', disabled: false, lastUpdate, positionId: null, groupId: 0,
  calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {},
});
const pos = (deviceId: number, attributes: Record<string, unknown>) => ({ deviceId, attributes }) as unknown as Position;
const names = (list: Device[]) => list.map((d) => d.name);

describe('sort reducer', () => {
  it('defaults to name ascending; same key toggles, another starts ascending', () => {
    expect(DEFAULT_SORT).toEqual({ key: 'name', direction: 'asc' });
    const a = sortReducer(DEFAULT_SORT, 'name');
    expect(a).toEqual({ key: 'name', direction: 'desc' });
    expect(sortReducer(a, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(sortReducer(a, 'state-motion')).toEqual({ key: 'state-motion', direction: 'asc' });
  });
});

describe('sorting', () => {
  const devices = [dev(1, 'Ônibus 10', '2026-01-02T00:00:00Z'), dev(2, 'caminhão 2', null), dev(3, 'Ambulância', '2026-01-03T00:00:00Z'), dev(4, 'Caminhão 10', '2026-01-01T00:00:00Z')];
  const positions = { 1: pos(1, { motion: true, ignition: true }), 3: pos(3, { blocked: true, alarm: 'sos', driverUniqueId: 'X' }), 4: pos(4, { motion: false }) };
  const ctx = { positions, anchored: new Set([4]) };
  it('by name, accent- and case-insensitive, numbers in order', () => {
    expect(names(sortDevices(devices, { key: 'name', direction: 'asc' }, ctx))).toEqual(['Ambulância', 'caminhão 2', 'Caminhão 10', 'Ônibus 10']);
    expect(names(sortDevices(devices, { key: 'name', direction: 'desc' }, ctx))).toEqual(['Ônibus 10', 'Caminhão 10', 'caminhão 2', 'Ambulância']);
  });
  it('by last update: ascending = most recent first, never-updated last', () => {
    expect(names(sortDevices(devices, { key: 'lastUpdate', direction: 'asc' }, ctx))).toEqual(['Ambulância', 'Ônibus 10', 'Caminhão 10', 'caminhão 2']);
    expect(names(sortDevices(devices, { key: 'lastUpdate', direction: 'desc' }, ctx))).toEqual(['Caminhão 10', 'Ônibus 10', 'Ambulância', 'caminhão 2']);
    expect([...lastUpdateOrder([devices[1]!, devices[0]!], 'asc')]).toEqual([1, 0]);
  });
  it('by state: flagged first, no position last', () => {
    expect(names(sortDevices(devices, { key: 'state-motion', direction: 'asc' }, ctx))).toEqual(['Ônibus 10', 'Ambulância', 'Caminhão 10', 'caminhão 2']);
    expect(names(sortDevices(devices, { key: 'state-motion', direction: 'desc' }, ctx))).toEqual(['Ambulância', 'Caminhão 10', 'Ônibus 10', 'caminhão 2']);
    expect(names(sortDevices(devices, { key: 'state-anchor', direction: 'asc' }, ctx))[0]).toBe('Caminhão 10');
    for (const k of ['state-locked', 'state-alert', 'state-driver'] as const) expect(names(sortDevices(devices, { key: k, direction: 'asc' }, ctx))[0]).toBe('Ambulância');
    expect(names(sortDevices(devices, { key: 'state-ignition', direction: 'asc' }, ctx))[0]).toBe('Ônibus 10');
  });
  it('state flags', () => {
    expect(stateFlag('motion', undefined, false)).toBeNull();
    expect(stateFlag('driver', pos(1, { driverUniqueId: '' }), false)).toBe(false);
    expect(stateFlag('alert', pos(1, { alarm: 'overspeed' }), false)).toBe(true);
  });
  it('lastUpdate order matches a plain sort (ties keep name order)', () => {
    const list: Device[] = [];
    for (let i = 0; i < 500; i++) list.push(dev(i + 1, `N${i}`, i % 13 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 97) * 1000).toISOString()));
    for (const direction of ['asc', 'desc'] as const) {
      const t = (d: Device) => Date.parse(d.lastUpdate!);
      const dated = list.map((d, i) => ({ d, i })).filter((x) => x.d.lastUpdate !== null)
        .sort((a, b) => (direction === 'asc' ? t(b.d) - t(a.d) : t(a.d) - t(b.d)) || a.i - b.i).map((x) => x.i);
      const never = list.map((d, i) => ({ d, i })).filter((x) => x.d.lastUpdate === null).map((x) => x.i);
      expect([...lastUpdateOrder(list, direction)]).toEqual([...dated, ...never]);
    }
  });
});
