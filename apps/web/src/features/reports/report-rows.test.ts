import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../i18n/translator.ts';
import { rowsOf } from './report-rows.ts';
import { eventLabel } from './event-label.ts';
import type { Formats } from './use-formats.ts';

const t = ((key: string, o?: { defaultValue?: string }) => (key.startsWith('events.alarms.') || key.startsWith('events.types.') ? `<${key.split('.').pop()}>` : o?.defaultValue ?? key)) as unknown as TFunction;
const f = {
  distance: (m: number) => `${(m / 1000).toFixed(2)} km`, speed: (k: number) => `${Math.round(k * 1.852)} km/h`,
  time: (iso: string) => `T(${iso})`, timeSeconds: (iso: string) => `S(${iso})`, duration: (ms: number) => `${ms / 60000} min`,
} as unknown as Formats;
const ctx = { f, t, deviceName: (id: number, given?: string) => given ?? `dev${id}` };

describe('report rows', () => {
  it('shows a trip with converted units and its start and end on the map', () => {
    const [row] = rowsOf('trips', [{
      deviceId: 1, deviceName: 'Truck', startTime: 'a', endTime: 'b', duration: 600000, distance: 12345, averageSpeed: 10, maxSpeed: 20,
      startLat: -23.5, startLon: -46.6, endLat: -23.6, endLon: -46.7, startAddress: null, endAddress: 'Rua B',
    }], ctx);
    expect(row!.title).toBe('Truck');
    expect(row!.line1).toBe('T(a) – T(b) · 10 min');
    expect(row!.line2).toBe('12.35 km · reports.short.max 37 km/h · reports.short.avg 19 km/h');
    expect(row!.line3).toBe('-23.50000, -46.60000 → Rua B');
    expect(row!.point).toEqual({ latitude: -23.5, longitude: -46.6 });
    expect(row!.endPoint).toEqual({ latitude: -23.6, longitude: -46.7 });
  });

  it('reads stop coordinates under either name', () => {
    const rows = rowsOf('stops', [
      { deviceId: 2, startTime: 'a', endTime: 'b', duration: 60000, latitude: 1, longitude: 2 },
      { deviceId: 2, startTime: 'a', endTime: 'b', duration: 60000, lat: 3, lon: 4, address: 'Here' },
    ], ctx);
    expect(rows.map((r) => r.point)).toEqual([{ latitude: 1, longitude: 2 }, { latitude: 3, longitude: 4 }]);
    expect(rows[1]!.line2).toBe('Here');
    expect(rows[0]!.title).toBe('dev2');
    expect(rows[0]!.line1).toBe('T(a) – T(b) · 1 min');
  });

  it('names events and their alarms', () => {
    expect(eventLabel(t, { type: 'alarm', attributes: { alarm: 'sos,overspeed' } })).toBe('<alarm>: <sos>, <overspeed>');
    expect(eventLabel(t, { type: 'ignitionOn', attributes: {} })).toBe('<ignitionOn>');
  });
});
