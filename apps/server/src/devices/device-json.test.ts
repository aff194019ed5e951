import { describe, expect, it } from 'vitest';
import { deviceToJson, type DeviceRow } from './device-json.ts';

const row: DeviceRow = {
  id: 7, name: 'Truck', uniqueId: '123', status: null, disabled: 1, lastUpdate: Date.parse('2024-05-01T10:00:00Z'),
  positionId: 9, groupId: null, calendarId: null, phone: null, model: 'GT06', contact: null, category: 'truck',
  expirationTime: null, attributes: '{"speedLimit":50}',
  motionState: 1, motionStreak: 0, motionPositionId: 3, motionTime: 1, motionDistance: 2, motionLatitude: 3,
  motionLongitude: 4, overspeedState: 1, overspeedTime: 5, overspeedGeofenceId: 6,
};

describe('deviceToJson', () => {
  it('maps a row to the Traccar shape without the processing state', () => {
    expect(deviceToJson(row)).toEqual({
      id: 7, name: 'Truck', uniqueId: '123', status: 'offline', disabled: true, lastUpdate: '2024-05-01T10:00:00.000+00:00',
      positionId: 9, groupId: 0, calendarId: 0, phone: null, model: 'GT06', contact: null, category: 'truck',
      expirationTime: null, attributes: { speedLimit: 50 },
    });
  });

  it('sends no group or calendar as 0, as Traccar does, and a stored one as its id', () => {
    expect(deviceToJson({ ...row, groupId: 4, calendarId: 5 })).toMatchObject({ groupId: 4, calendarId: 5 });
  });

  it('keeps known statuses and maps unknown or missing ones to offline', () => {
    expect(deviceToJson({ ...row, status: 'online' }).status).toBe('online');
    expect(deviceToJson({ ...row, status: 'unknown' }).status).toBe('unknown');
    expect(deviceToJson({ ...row, status: 'weird' }).status).toBe('offline');
  });

  it('survives broken attribute text', () => {
    expect(deviceToJson({ ...row, attributes: 'not json' }).attributes).toEqual({});
  });
});
