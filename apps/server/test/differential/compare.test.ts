// The comparison rules of the differential test (compare.ts, deliberate-match.ts,
// event-pairs.ts), on small hand-made answers.
import { describe, expect, it } from 'vitest';
import { compareAnswers, zoneOf, type Answer } from './compare.ts';
import { accepts } from './deliberate-match.ts';
import type { Deliberate } from './deliberate-differences.ts';
import { pairEvents } from './event-pairs.ts';
import { IdMap, type IdKind } from './id-map.ts';

function ids(): IdMap {
  const map = new IdMap();
  map.set('device', 1, 11);
  map.set('device', 2, 12);
  map.set('position', 7, 70);
  return map;
}

const ok = (json: unknown): Answer => ({ status: 200, json });
const diff = (t: unknown, o: unknown, kind?: IdKind, map = ids()) =>
  compareAnswers('R', ok(t), ok(o), { ids: map, kind }).map(({ path, kind: k, traccar, ours }) => ({ path, kind: k, traccar, ours }));

describe('compareAnswers', () => {
  it('reports a different status alone, without comparing bodies', () => {
    expect(compareAnswers('R', ok({ a: 1 }), { status: 404 }, { ids: ids() })).toEqual([
      { request: 'R', path: '$', kind: 'status', traccar: 200, ours: 404 },
    ]);
  });

  it('compares nothing more when Traccar kept no body (errors, 204)', () => {
    expect(compareAnswers('R', { status: 400 }, { status: 400, json: { message: 'x' } }, { ids: ids() })).toEqual([]);
  });

  it('says when ours is not JSON where Traccar answered JSON', () => {
    expect(diff([], undefined)).toEqual([{ path: '$', kind: 'type', traccar: [], ours: '' }]);
  });

  it('finds missing and extra keys and type changes at every depth', () => {
    expect(diff({ a: { b: 1, c: null }, d: 0 }, { a: { b: 1, e: true }, d: null })).toEqual([
      { path: '$.a.c', kind: 'missing', traccar: null, ours: undefined },
      { path: '$.a.e', kind: 'extra', traccar: undefined, ours: true },
      { path: '$.d', kind: 'type', traccar: 0, ours: null },
    ]);
  });

  it('compares ids through the map; 0 stays 0; unknown ids of world objects literally, of positions by shape', () => {
    expect(diff({ id: 1, groupId: 0, positionId: 7 }, { id: 11, groupId: 0, positionId: 70 }, 'device')).toEqual([]);
    expect(diff({ id: 1, positionId: 7 }, { id: 1, positionId: 71 }, 'device')).toEqual([
      { path: '$.id', kind: 'value', traccar: 1, ours: 1 },
      { path: '$.positionId', kind: 'value', traccar: 7, ours: 71 },
    ]);
    expect(diff({ id: 999999, positionId: 8 }, { id: 999999, positionId: 5 }, 'device')).toEqual([]);
    expect(diff({ id: 999999, positionId: 8 }, { id: 5, positionId: 0 }, 'device')).toEqual([
      { path: '$.id', kind: 'value', traccar: 999999, ours: 5 },
      { path: '$.positionId', kind: 'value', traccar: 8, ours: 0 },
    ]);
    expect(diff({ groupId: 0 }, { groupId: 3 })).toEqual([{ path: '$.groupId', kind: 'value', traccar: 0, ours: 3 }]);
  });

  it('maps id lists (geofenceIds) element by element', () => {
    const map = ids();
    map.set('geofence', 1, 21);
    expect(diff({ geofenceIds: [1] }, { geofenceIds: [21] }, undefined, map)).toEqual([]);
    expect(diff({ geofenceIds: [1] }, { geofenceIds: [1] }, undefined, map)).toHaveLength(1);
  });

  it('compares server times by type only and other timestamps as instants', () => {
    const t = { serverTime: '2026-11-25T00:37:42.696+00:00', lastUpdate: '2026-11-25T00:37:42.698+00:00', fixTime: '2026-11-25T00:34:00.000+00:00' };
    expect(diff(t, { serverTime: '2026-12-01T10:00:00.000Z', lastUpdate: '2026-12-01T10:00:00Z', fixTime: '2026-11-25T01:34:00+01:00' })).toEqual([]);
    expect(diff(t, { ...t, lastUpdate: null, fixTime: '2026-11-25T00:34:01.000+00:00' })).toEqual([
      { path: '$.lastUpdate', kind: 'type', traccar: t.lastUpdate, ours: null },
      { path: '$.fixTime', kind: 'value', traccar: t.fixTime, ours: '2026-11-25T00:34:01.000+00:00' },
    ]);
  });

  it('tolerates float noise (1e-9 relative) but not rounding', () => {
    expect(diff({ d: 222.136802398867 }, { d: 222.13680239886702 })).toEqual([]);
    expect(diff({ d: 222.136802398867 }, { d: 222.14 })).toEqual([{ path: '$.d', kind: 'value', traccar: 222.136802398867, ours: 222.14 }]);
    expect(diff({ s: 'abc' }, { s: 'abd' })).toHaveLength(1);
  });

  it('pairs list elements by mapped id: missing, extra and order are told in Traccar\'s ids', () => {
    expect(diff([{ id: 1 }, { id: 2 }], [{ id: 12 }, { id: 11 }], 'device')).toEqual([
      { path: '$', kind: 'order', traccar: [1, 2], ours: [2, 1] },
    ]);
    expect(diff([{ id: 1, n: 'a' }, { id: 2 }], [{ id: 11, n: 'b' }, { id: 13 }], 'device')).toEqual([
      { path: '$[id=1].n', kind: 'value', traccar: 'a', ours: 'b' },
      { path: '$[id=2]', kind: 'missing', traccar: { id: 2 }, ours: undefined },
      { path: '$[id=ours:13]', kind: 'extra', traccar: undefined, ours: { id: 13 } },
    ]);
  });

  it('pairs unmapped positions and events by nothing: they are missing and extra', () => {
    expect(diff([{ id: 9 }], [{ id: 9 }], 'position').map((d) => d.kind)).toEqual(['missing', 'extra']);
  });

  it('pairs type lists by type, string lists as sets, other lists by index', () => {
    expect(diff([{ type: 'a' }, { type: 'b' }], [{ type: 'b' }, { type: 'c' }])).toEqual([
      { path: '$[type=a]', kind: 'missing', traccar: { type: 'a' }, ours: undefined },
      { path: '$[type=ours:c]', kind: 'extra', traccar: undefined, ours: { type: 'c' } },
    ]);
    expect(diff(['x', 'y', 'z'], ['z', 'y', 'w'])).toEqual([
      { path: '$[=x]', kind: 'missing', traccar: 'x', ours: undefined },
      { path: '$[=w]', kind: 'extra', traccar: undefined, ours: 'w' },
      { path: '$', kind: 'order', traccar: ['y', 'z'], ours: ['z', 'y'] },
    ]);
    expect(diff([{ v: 1 }, { v: 2 }], [{ v: 1 }])).toEqual([{ path: '$[1]', kind: 'missing', traccar: { v: 2 }, ours: undefined }]);
    expect(diff([[2.34, 48.85]], [[2.34, 48.851]])).toEqual([{ path: '$[0][1]', kind: 'value', traccar: 48.85, ours: 48.851 }]);
  });

  it('compares time zone names by the zone they name: an alias of a zone we list is no difference', () => {
    expect(diff(['US/Eastern', 'America/New_York', 'Asia/Kolkata', 'SystemV/AST4'], ['America/New_York', 'Asia/Calcutta', 'UTC'])).toEqual([
      { path: '$[=SystemV/AST4]', kind: 'missing', traccar: 'SystemV/AST4', ours: undefined },
      { path: '$[=UTC]', kind: 'extra', traccar: undefined, ours: 'UTC' },
    ]);
    expect(diff(['Asia/Calcutta', 'US/Eastern'], ['America/New_York', 'Asia/Kolkata'])).toEqual([
      { path: '$', kind: 'order', traccar: [zoneOf('Asia/Calcutta'), 'America/New_York'], ours: ['America/New_York', zoneOf('Asia/Kolkata')] },
    ]);
  });

  it('compares events and positions nested in a combined report through their kinds', () => {
    const map = ids();
    map.set('event', 3, 30);
    expect(diff([{ deviceId: 1, events: [{ id: 3, positionId: 7 }], positions: [{ id: 7 }] }],
      [{ deviceId: 11, events: [{ id: 30, positionId: 70 }], positions: [{ id: 70 }] }], undefined, map)).toEqual([]);
  });
});

describe('deliberate patterns', () => {
  const entry = (request: string, path: string): Deliberate => ({ request, path, kind: 'extra', reason: 'r' });
  const d = (request: string, path: string) => ({ request, path, kind: 'extra' as const, traccar: undefined, ours: 1 });

  it('`*` is one step of a path, `**` any depth, and any text in a request name', () => {
    expect(accepts(entry('GET /api/users', '$[*].x'), d('GET /api/users', '$[id=1].x'))).toBe(true);
    expect(accepts(entry('GET /api/users', '$[*].x'), d('GET /api/users', '$[id=1].y.x'))).toBe(false);
    expect(accepts(entry('GET /api/users', '$.*'), d('GET /api/users', '$.x'))).toBe(true);
    expect(accepts(entry('GET /api/users', '$.*'), d('GET /api/users', '$.x.y'))).toBe(false);
    expect(accepts(entry('*', '**.x'), d('GET /api/users?userId={usr}', '$[id=1].a.x'))).toBe(true);
    expect(accepts(entry('POST /api/commands/send *', '$.c'), d('POST /api/commands/send custom', '$.c'))).toBe(true);
    expect(accepts(entry('GET /api/users', '$.x'), d('GET /api/users/{usr}', '$.x'))).toBe(false);
    expect(accepts({ ...entry('*', '$.x'), kind: 'missing' }, d('R', '$.x'))).toBe(false);
  });
});

describe('pairEvents', () => {
  it('pairs events of the same device, type and time (same geofence first); leaves the rest unpaired', () => {
    const map = ids();
    map.set('geofence', 1, 21);
    map.set('geofence', 2, 22);
    const time = '2026-11-25T00:00:00.000+00:00';
    pairEvents(
      [
        { id: 1, deviceId: 1, type: 'geofenceEnter', eventTime: time, geofenceId: 2 },
        { id: 2, deviceId: 1, type: 'geofenceEnter', eventTime: time, geofenceId: 1 },
        { id: 3, deviceId: 2, type: 'alarm', eventTime: time, geofenceId: 0 },
      ],
      [
        { id: 40, deviceId: 11, type: 'geofenceEnter', eventTime: '2026-11-25T00:00:00Z', geofenceId: 21 },
        { id: 41, deviceId: 11, type: 'geofenceEnter', eventTime: time, geofenceId: 22 },
      ],
      map,
    );
    expect([map.ours('event', 1), map.ours('event', 2), map.ours('event', 3)]).toEqual([41, 40, undefined]);
  });
});
