import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Device, Position } from '@rastro/domain/entities';
import { resetLive, setLoaded } from './live-store.ts';
import {
  chooseSort, clearFilters, getVisibleDeviceIds, resetDeviceFilters, setQuery, setStatusFilter, subscribeVisibleDeviceIds, useDeviceFilters,
} from './visible-devices.ts';

const dev = (id: number, name: string, status: Device['status'] = 'online'): Device => ({
  id, name, uniqueId: `u${id}`, status, disabled: false, lastUpdate: null, positionId: null, groupId: 0,
  calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {},
});
const pos = (deviceId: number, motion: boolean) => ({ deviceId, fixTime: '2026-01-01T00:00:00Z', serverTime: '', attributes: { motion } }) as unknown as Position;

afterEach(() => {
  localStorage.clear();
  resetDeviceFilters();
  resetLive();
});

describe('visible devices', () => {
  it('null while nothing is filtered; the passing ids otherwise; listeners hear changes', () => {
    setLoaded([dev(1, 'Caminhão'), dev(2, 'Moto', 'offline')], [pos(1, true)]);
    expect(getVisibleDeviceIds()).toBeNull();
    const listener = vi.fn();
    const stop = subscribeVisibleDeviceIds(listener);
    setQuery('caminhao');
    expect(getVisibleDeviceIds()).toEqual(new Set([1]));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('query')).toBe('caminhao');
    setStatusFilter('offline');
    expect(getVisibleDeviceIds()).toEqual(new Set());
    clearFilters();
    expect(getVisibleDeviceIds()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
    stop();
  });
  it('the query comes back from localStorage; sort toggles and is remembered', () => {
    localStorage.setItem('query', 'moto');
    resetDeviceFilters();
    expect(useDeviceFilters.getState().filters.query).toBe('moto');
    chooseSort('name');
    expect(useDeviceFilters.getState().sort).toEqual({ key: 'name', direction: 'desc' });
    resetDeviceFilters();
    expect(useDeviceFilters.getState().sort).toEqual({ key: 'name', direction: 'desc' });
  });
});
