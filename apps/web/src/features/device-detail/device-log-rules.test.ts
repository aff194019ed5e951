import { describe, expect, it } from 'vitest';
import { addRows, frameText, isFrameOf, mayViewDeviceLog, type LogRow } from './device-log-rules.ts';

const row = (key: number, extra: Partial<LogRow> = {}): LogRow => ({
  key, at: Date.UTC(2026, 0, 1, 10, 0, key), protocol: 'gt06', host: '10.0.0.1:4000', uniqueId: '123', deviceId: 7, data: `78 ${key}`, ...extra,
});

describe('device log rules', () => {
  it('administrators and managers only', () => {
    expect(mayViewDeviceLog({ administrator: true, userLimit: 0 })).toBe(true);
    expect(mayViewDeviceLog({ administrator: false, userLimit: 5 })).toBe(true);
    expect(mayViewDeviceLog({ administrator: false, userLimit: -1 })).toBe(true);
    expect(mayViewDeviceLog({ administrator: false, userLimit: 0 })).toBe(false);
    expect(mayViewDeviceLog(null)).toBe(false);
  });

  it('frames of the device by id, or by unique id while not bound to a device', () => {
    const device = { id: 7, uniqueId: '123' };
    expect(isFrameOf(row(1), device)).toBe(true);
    expect(isFrameOf(row(1, { deviceId: 8 }), device)).toBe(false);
    expect(isFrameOf(row(1, { deviceId: null }), device)).toBe(true);
    expect(isFrameOf(row(1, { deviceId: null, uniqueId: null }), device)).toBe(false);
  });

  it('newest first, bounded', () => {
    expect(addRows([row(2), row(1)], [row(3), row(4)]).map((r) => r.key)).toEqual([4, 3, 2, 1]);
    expect(addRows([row(2), row(1)], [row(3)], 2).map((r) => r.key)).toEqual([3, 2]);
    expect(addRows([row(1)], [row(2), row(3), row(4)], 2).map((r) => r.key)).toEqual([4, 3]);
  });

  it('copies time, protocol, remote and data', () => {
    expect(frameText(row(5))).toBe('2026-01-01T10:00:05.000Z gt06 10.0.0.1:4000 78 5');
  });
});
