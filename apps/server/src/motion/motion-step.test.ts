import { describe, expect, it } from 'vitest';
import { compactDraft } from './motion-step.ts';
import type { PositionDraft } from '../processing/position-draft.ts';

const draft = (id: number | null): PositionDraft => ({
  id, deviceId: 3, protocol: 'gt06', serverTime: 10, deviceTime: 9, fixTime: 8, outdated: false, valid: true,
  latitude: -23.5, longitude: -46.6, altitude: 700, speed: 12, course: 90, accuracy: 5,
  network: { radioType: 'gsm', cellTowers: [{ cellId: 1, locationAreaCode: 2, mobileCountryCode: 724, mobileNetworkCode: 5 }] } as PositionDraft['network'],
  attributes: { totalDistance: 1234.5, odometer: 99, hours: 3_600_000, ignition: true, motion: true, sat: 9, rssi: 4, io200: 'x'.repeat(200) },
  address: 'Rua A, 1', geofenceIds: [4],
});

describe('compactDraft (the live motion window)', () => {
  it('waits until the position is stored: a change dated at it finds it in its flush by identity', () => {
    expect(compactDraft(draft(null))).toBeNull();
  });

  it('keeps what a change dated at the position needs and drops the rest', () => {
    const c = compactDraft(draft(42))!;
    expect(c).toMatchObject({ id: 42, fixTime: 8, latitude: -23.5, longitude: -46.6, speed: 12, address: 'Rua A, 1', network: null, geofenceIds: null });
    expect(c.attributes).toEqual({ totalDistance: 1234.5, odometer: 99, hours: 3_600_000, ignition: true, motion: true });
  });
});
