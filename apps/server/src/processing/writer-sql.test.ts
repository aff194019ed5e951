import { describe, expect, it } from 'vitest';
import { emptyFix } from '../ingest/decoded.ts';
import { draftFromFix, draftToColumns, putDraftValues, type PositionColumns } from './position-draft.ts';
import { insertEventsQuery, insertPositionsQuery, POSITION_COLUMNS, sqliteWriterStatements, updateDevicesQuery } from './writer-sql.ts';
import { EVENT_COLUMNS } from './writer-protocol.ts';

const row = (deviceId: number): PositionColumns => ({
  deviceId, protocol: 'osmand', serverTime: 1, deviceTime: 2, fixTime: 3, valid: 1, latitude: 4, longitude: 5, altitude: 6,
  speed: 7, course: 8, address: null, accuracy: 9, network: null, geofenceIds: null, attributes: '{}',
});
const values = (rows: PositionColumns[]) => rows.flatMap((r) => POSITION_COLUMNS.map((c) => r[c]));

describe('writer SQL', () => {
  it('numbers PostgreSQL placeholders across rows and keeps column order in the parameters', () => {
    const q = insertPositionsQuery('postgres', values([row(1), row(2)]));
    expect(q.sql).toContain('($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16), ($17,');
    expect(q.sql).toMatch(/returning "id"$/);
    expect(q.parameters.length).toBe(2 * POSITION_COLUMNS.length);
    expect(q.parameters.slice(0, 3)).toEqual([1, 'osmand', 1]);
    expect(q.parameters[16]).toBe(2);
    const e = insertEventsQuery('postgres', ['alarm', 1, 2, 3, 0, 0, '{}', 'alarm', 4, 5, 6, 0, 0, '{}']);
    expect(e.sql).toContain(`($1, $2, $3, $4, $5, $6, $7), ($8,`);
  });

  it('uses ? on SQLite and one UPDATE for all devices', () => {
    expect(insertPositionsQuery('sqlite', values([row(1)])).sql).toContain('(?, ?, ?');
    const u = updateDevicesQuery('sqlite', [
      { id: 1, status: 'online', lastUpdate: 10, positionId: 5 },
      { id: 2, status: 'unknown', lastUpdate: 11, positionId: null },
    ]);
    expect(u.sql.match(/cast\(\? as bigint\)/g)?.length).toBe(6);
    expect(u.parameters).toEqual([1, 'online', 10, 5, 2, 'unknown', 11, null]);
  });

  it('gives the SQLite writer thread single-row statements of the same columns', () => {
    const s = sqliteWriterStatements();
    expect(s.insertPosition.match(/\?/g)?.length).toBe(POSITION_COLUMNS.length);
    expect(s.insertPosition).toContain('"deviceId", "protocol"');
    expect(s.insertEvent.match(/\?/g)?.length).toBe(EVENT_COLUMNS.length);
    expect(s.updateDevice).toBe('update "devices" set "status" = ?, "lastUpdate" = ?, "positionId" = ? where "id" = ?');
  });

  it('puts a draft’s values in POSITION_COLUMNS order, as draftToColumns stores them', () => {
    const draft = draftFromFix(
      { ...emptyFix('osmand', 1000), latitude: 1.5, longitude: 2.5, speed: 3, attributes: { a: 1 }, network: { radioType: 'gsm' } },
      7,
      2000,
    );
    draft.geofenceIds = [4, 5];
    draft.address = 'Rua A';
    const out: unknown[] = [null];
    expect(putDraftValues(out, 1, draft)).toBe(1 + POSITION_COLUMNS.length);
    const columns = draftToColumns(draft);
    expect(out.slice(1)).toEqual(POSITION_COLUMNS.map((c) => columns[c]));
  });
});

describe('deviceColumnUpdates', () => {
  it('groups triples per device, later values win, placeholders per dialect', async () => {
    const { deviceColumnUpdates } = await import('./writer-sql.ts');
    const triples = [1, 'overspeedState', 1, 2, 'overspeedTime', 5, 1, 'overspeedState', 0, 1, 'overspeedTime', null];
    expect(deviceColumnUpdates('sqlite', triples)).toEqual([
      { sql: 'update "devices" set "overspeedState" = ?, "overspeedTime" = ? where "id" = ?', params: [0, null, 1] },
      { sql: 'update "devices" set "overspeedTime" = ? where "id" = ?', params: [5, 2] },
    ]);
    expect(deviceColumnUpdates('postgres', [3, 'a', 1, 3, 'b', 2])[0]).toEqual({ sql: 'update "devices" set "a" = $1, "b" = $2 where "id" = $3', params: [1, 2, 3] });
    expect(() => deviceColumnUpdates('sqlite', [1, 'x"; drop', 1])).toThrow(/invalid device column/);
  });
});
