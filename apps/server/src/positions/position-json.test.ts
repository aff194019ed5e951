import { describe, expect, it } from 'vitest';
import { positionToJson, type PositionRow } from './position-json.ts';

const at = Date.parse('2024-05-01T10:00:00Z');
const row: PositionRow = {
  id: 1, deviceId: 2, protocol: 'gt06', serverTime: at + 1000, deviceTime: at, fixTime: at, valid: 1,
  latitude: -23.5, longitude: -46.6, altitude: 700, speed: 12.5, course: 180, address: null, accuracy: 0,
  network: null, geofenceIds: null, attributes: '{"ignition":true}',
};

describe('positionToJson', () => {
  it('sends address, network and geofenceIds as null when empty, as Traccar does', () => {
    const json = positionToJson(row);
    expect(json).toEqual({
      id: 1, deviceId: 2, protocol: 'gt06', serverTime: '2024-05-01T10:00:01.000+00:00',
      deviceTime: '2024-05-01T10:00:00.000+00:00', fixTime: '2024-05-01T10:00:00.000+00:00', valid: true,
      latitude: -23.5, longitude: -46.6, altitude: 700, speed: 12.5, course: 180, address: null, accuracy: 0,
      network: null, geofenceIds: null, attributes: { ignition: true },
    });
    // Outside every geofence is null, not an empty list.
    expect(positionToJson({ ...row, geofenceIds: '[]', address: '' })).toMatchObject({ geofenceIds: null, address: null });
  });

  it('includes address, network and geofenceIds when stored', () => {
    const json = positionToJson({ ...row, address: 'Rua X', network: '{"radioType":"gsm"}', geofenceIds: '[4,5]' });
    expect(json).toMatchObject({ address: 'Rua X', network: { radioType: 'gsm' }, geofenceIds: [4, 5] });
  });

  it('ignores malformed network and geofence text', () => {
    const json = positionToJson({ ...row, network: '[1]', geofenceIds: '{' });
    expect(json).toMatchObject({ network: null, geofenceIds: null });
  });
});
