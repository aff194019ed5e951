import { describe, expect, it } from 'vitest';
import type { Device, Position } from './entities.ts';
import { countDevices, matchesStatus } from './device-counts.ts';

const dev = (id: number, status: Device['status']): Device => ({
  id, name: `D${id}`, uniqueId: `u${id}`, status, disabled: false, lastUpdate: null, positionId: null, groupId: 0,
  calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {},
});
const pos = (deviceId: number, attributes: Record<string, unknown>) => ({ deviceId, attributes }) as unknown as Position;

describe('status filter and counts', () => {
  const devices = [dev(1, 'online'), dev(2, 'online'), dev(3, 'offline'), dev(4, 'unknown'), dev(5, 'online')];
  const positions = { 1: pos(1, { motion: true }), 2: pos(2, { motion: false }), 3: pos(3, { motion: false }) };
  it('moving = motion true; stopped = online without motion', () => {
    expect(matchesStatus('moving', devices[0]!, positions[1])).toBe(true);
    expect(matchesStatus('stopped', devices[0]!, positions[1])).toBe(false);
    expect(matchesStatus('stopped', devices[1]!, positions[2])).toBe(true);
    expect(matchesStatus('stopped', devices[4]!, undefined)).toBe(true);
    expect(matchesStatus('stopped', devices[2]!, positions[3])).toBe(false);
    expect(matchesStatus('offline', devices[2]!, undefined)).toBe(true);
    expect(matchesStatus('all', devices[3]!, undefined)).toBe(true);
  });
  it('counts every status', () => {
    expect(countDevices(devices, positions)).toEqual({ all: 5, online: 3, offline: 1, unknown: 1, moving: 1, stopped: 2 });
  });
});
