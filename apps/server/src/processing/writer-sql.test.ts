import { describe, expect, it } from 'vitest';
import { insertPositionsQuery, POSITION_COLUMNS, updateDevicesQuery } from './writer-sql.ts';
import type { PositionColumns } from './position-draft.ts';

const row = (deviceId: number): PositionColumns => ({
  deviceId, protocol: 'osmand', serverTime: 1, deviceTime: 2, fixTime: 3, valid: 1, latitude: 4, longitude: 5, altitude: 6,
  speed: 7, course: 8, address: null, accuracy: 9, network: null, geofenceIds: null, attributes: '{}',
});

describe('writer SQL', () => {
  it('numbers PostgreSQL placeholders across rows and keeps column order in the parameters', () => {
    const q = insertPositionsQuery('postgres', [row(1), row(2)]);
    expect(q.sql).toContain('($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16), ($17,');
    expect(q.sql).toMatch(/returning "id"$/);
    expect(q.parameters.length).toBe(2 * POSITION_COLUMNS.length);
    expect(q.parameters.slice(0, 3)).toEqual([1, 'osmand', 1]);
    expect(q.parameters[16]).toBe(2);
  });

  it('uses ? on SQLite and one UPDATE for all devices', () => {
    expect(insertPositionsQuery('sqlite', [row(1)]).sql).toContain('(?, ?, ?');
    const u = updateDevicesQuery('sqlite', [
      { id: 1, status: 'online', lastUpdate: 10, positionId: 5 },
      { id: 2, status: 'unknown', lastUpdate: 11, positionId: null },
    ]);
    expect(u.sql.match(/cast\(\? as bigint\)/g)?.length).toBe(6);
    expect(u.parameters).toEqual([1, 'online', 10, 5, 2, 'unknown', 11, null]);
  });
});
