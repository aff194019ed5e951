import { describe, expect, it } from 'vitest';
import type { Device, Position } from './entities.ts';
import { buildDeviceList, EMPTY_FILTERS, isDeletedDevice, passesFilters, visibleIds, type DeviceFilters } from './device-filters.ts';
import { DEFAULT_SORT } from './device-sort.ts';

const dev = (id: number, name: string, over: Partial<Device> = {}): Device => ({
  id, name, uniqueId: `u${id}`, status: 'online', disabled: false, lastUpdate: null, positionId: null, groupId: 0,
  calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {}, ...over,
});
const pos = (deviceId: number, attributes: Record<string, unknown>) => ({ deviceId, attributes }) as unknown as Position;

const devices: Device[] = [
  dev(1, 'Caminhão 1', { category: 'truck', groupId: 7, attributes: { plate: 'AAA1A11', 'device.state': 'installed', 'device.gpsBrand': 'Suntech', 'device.technology': '4G' } }),
  dev(2, 'Moto 2', { category: 'motorcycle', status: 'offline', attributes: { 'device.model': 'ST310' } }),
  dev(3, 'Carro 3', { status: 'unknown' }),
  dev(4, 'Van 4', { category: 'van' }),
  dev(5, 'Apagado', { uniqueId: 'deleted-5-123' }),
];
const positions = {
  1: pos(1, { motion: true, ignition: true, driverUniqueId: 'D1' }),
  2: pos(2, { motion: false, blocked: true }),
  4: pos(4, { motion: false, ignition: false }),
};
const ctx = { positions, groupNames: new Map([[7, 'Filial Belém']]), anchored: new Set([4]) };
const shown = (f: Partial<DeviceFilters>) => buildDeviceList(devices, { ...EMPTY_FILTERS, ...f }, DEFAULT_SORT, ctx).devices.map((d) => d.id);

describe('deleted devices', () => {
  it('deleted-x-y is hidden, other uniqueIds are not', () => {
    expect(isDeletedDevice({ uniqueId: 'deleted-5-123' })).toBe(true);
    expect(isDeletedDevice({ uniqueId: 'deleted-5' })).toBe(false);
    expect(isDeletedDevice({ uniqueId: 'deleted-5-1-2' })).toBe(false);
    expect(isDeletedDevice({ uniqueId: 'x-deleted-5' })).toBe(false);
    expect(shown({})).toEqual([1, 4, 3, 2].sort((a, b) => ['Caminhão 1', 'Carro 3', 'Moto 2', 'Van 4'].indexOf(devices[a - 1]!.name) - ['Caminhão 1', 'Carro 3', 'Moto 2', 'Van 4'].indexOf(devices[b - 1]!.name)));
  });
});

describe('filters', () => {
  it('free text over name, plate, group name', () => {
    expect(shown({ query: 'caminhao' })).toEqual([1]);
    expect(shown({ query: 'aaa1' })).toEqual([1]);
    expect(shown({ query: 'belem' })).toEqual([1]);
    expect(shown({ query: 'apagado' })).toEqual([]);
  });
  it('combined status', () => {
    expect(shown({ status: 'online' })).toEqual([1, 4]);
    expect(shown({ status: 'offline' })).toEqual([2]);
    expect(shown({ status: 'unknown' })).toEqual([3]);
    expect(shown({ status: 'moving' })).toEqual([1]);
    expect(shown({ status: 'stopped' })).toEqual([4]);
  });
  it('category hide-list (empty category is default)', () => {
    expect(shown({ hiddenCategories: ['truck', 'default'] })).toEqual([2, 4]);
  });
  it('state', () => {
    expect(shown({ state: 'installed' })).toEqual([1]);
  });
  it('advanced filters, all must pass', () => {
    expect(shown({ advanced: [{ type: 'anchor', value: true }] })).toEqual([4]);
    expect(shown({ advanced: [{ type: 'driver', value: true }] })).toEqual([1]);
    expect(shown({ advanced: [{ type: 'ignition', value: true }] })).toEqual([1]);
    expect(shown({ advanced: [{ type: 'ignition', value: false }] })).toEqual([3, 2, 4]);
    expect(shown({ advanced: [{ type: 'locked', value: true }] })).toEqual([2]);
    expect(shown({ advanced: [{ type: 'gps_brand', value: 'suntech' }] })).toEqual([1]);
    expect(shown({ advanced: [{ type: 'gps_model', value: 'ST310' }] })).toEqual([2]);
    expect(shown({ advanced: [{ type: 'technology', value: '4G' }] })).toEqual([1]);
    expect(shown({ advanced: [{ type: 'ignition', value: false }, { type: 'locked', value: true }] })).toEqual([2]);
  });
  it('show only one device', () => {
    expect(shown({ onlyDeviceId: 3 })).toEqual([3]);
  });
  it('every filter must pass', () => {
    expect(shown({ query: 'caminhao', status: 'offline' })).toEqual([]);
    expect(passesFilters(devices[0]!, { ...EMPTY_FILTERS, query: 'belem', status: 'moving' }, ctx)).toBe(true);
  });
  it('counts are over the searched set, not the other filters', () => {
    const r = buildDeviceList(devices, { ...EMPTY_FILTERS, query: 'u', status: 'offline' }, DEFAULT_SORT, ctx);
    expect(r.counts).toEqual({ all: 4, online: 2, offline: 1, unknown: 1, moving: 1, stopped: 1 });
    expect(r.total).toBe(4);
  });
  it('visible ids: null when nothing hides a device, else the passing ids', () => {
    const clean = devices.slice(0, 4);
    expect(visibleIds(clean, EMPTY_FILTERS, ctx)).toBeNull();
    expect(visibleIds(devices, EMPTY_FILTERS, ctx)).toEqual(new Set([1, 2, 3, 4]));
    expect(visibleIds(devices, { ...EMPTY_FILTERS, status: 'offline' }, ctx)).toEqual(new Set([2]));
  });
  it('reuses the name order when device objects change but names do not', () => {
    const source: Record<number, Device> = Object.fromEntries(devices.map((d) => [d.id, d]));
    expect(buildDeviceList(source, EMPTY_FILTERS, DEFAULT_SORT, ctx).devices.map((d) => d.id)).toEqual([1, 3, 2, 4]);
    const next: Record<number, Device> = { ...source, 2: { ...source[2]!, status: 'online' } };
    expect(buildDeviceList(next, { ...EMPTY_FILTERS, status: 'online' }, DEFAULT_SORT, ctx).devices.map((d) => d.id)).toEqual([1, 2, 4]);
    const renamed = { ...next, 4: { ...next[4]!, name: 'Ambulância' } };
    expect(buildDeviceList(renamed, EMPTY_FILTERS, DEFAULT_SORT, ctx).devices.map((d) => d.id)).toEqual([4, 1, 3, 2]);
  });
  it('typing letter by letter (narrowed matching) gives the same result as a fresh match', () => {
    const many: Device[] = [];
    const words = ['Caminhão', 'Carro', 'Moto', 'Camionete', 'Ônibus', 'Van'];
    for (let i = 1; i <= 200; i++) many.push(dev(i, `${words[i % words.length]} ${i}`, { attributes: { plate: `P${i * 7}` } }));
    const source: Record<number, Device> = Object.fromEntries(many.map((d) => [d.id, d]));
    for (const word of ['caminhao 1', 'cam', 'p7', 'ônibus 12']) {
      for (let n = 0; n <= word.length; n++) {
        const f = { ...EMPTY_FILTERS, query: word.slice(0, n) };
        const got = buildDeviceList(source, f, DEFAULT_SORT, { positions: {} }).devices.map((d) => d.id).sort((a, b) => a - b);
        const want = many.filter((d) => passesFilters(d, f, { positions: {} })).map((d) => d.id).sort((a, b) => a - b);
        expect(got, `"${f.query}"`).toEqual(want);
      }
    }
  });
});
