import { describe, expect, it } from 'vitest';
import { AUDIT_CODES, AUDIT_OBJECT_TYPES, auditActionOf, auditCodeInfo, auditDiff, auditSucceeded, isAuditCode } from './audit.ts';

describe('audit codes', () => {
  it('keeps the Tarkan codes of §7.6 with their objects', () => {
    const tarkan: Record<number, string> = {
      101: 'user', 102: 'user', 105: 'user', 110: 'user', 111: 'user', 112: 'user', 120: 'user',
      201: 'device', 202: 'device', 211: 'device', 212: 'device', 301: 'device', 302: 'device',
      401: 'geofence', 402: 'geofence', 405: 'device', 406: 'device', 510: 'driver', 511: 'driver',
    };
    for (const [code, objectType] of Object.entries(tarkan)) {
      const info = auditCodeInfo(Number(code));
      expect(info?.objectType, code).toBe(objectType);
      expect(info?.rastro, code).toBeUndefined();
    }
    expect(isAuditCode(901) && isAuditCode(902)).toBe(true);
  });

  it('has a distinct action name and a known object type for every code', () => {
    const actions = Object.values(AUDIT_CODES).map((c) => c.action);
    expect(new Set(actions).size).toBe(actions.length);
    for (const info of Object.values(AUDIT_CODES)) expect(AUDIT_OBJECT_TYPES).toContain(info.objectType);
    expect(auditCodeInfo(999)).toBeNull();
  });

  it('tells a login attempt from a user creation (both 101)', () => {
    expect(auditActionOf({ code: 101, data: { email: 'a@b.c' } })).toBe('login');
    expect(auditActionOf({ code: 101, data: { id: 7, name: 'Ann', email: 'a@b.c' } })).toBe('userCreated');
    expect(auditActionOf({ code: 101, data: { name: 'Ann', email: 'a@b.c' } })).toBe('userCreated');
    expect(auditActionOf({ code: 302, data: null })).toBe('deviceDeleted');
    expect(auditActionOf({ code: 4242, data: null })).toBe('unknown');
  });

  it('judges success as the viewer does', () => {
    expect(auditSucceeded({ status: 200 })).toBe(true);
    expect(auditSucceeded({ status: 204 })).toBe(true);
    expect(auditSucceeded({ status: null })).toBe(true);
    expect(auditSucceeded({ status: 401 })).toBe(false);
  });
});

describe('auditDiff', () => {
  it('lists changed leaves, nested attributes by key, sorted', () => {
    const old = { id: 1, name: 'Truck', phone: null, attributes: { speedLimit: 80, color: 'red' } };
    const data = { id: 1, name: 'Truck 2', phone: null, attributes: { speedLimit: 90, plate: 'ABC' } };
    expect(auditDiff(old, data)).toEqual([
      { field: 'attributes.color', before: 'red', after: undefined },
      { field: 'attributes.plate', before: undefined, after: 'ABC' },
      { field: 'attributes.speedLimit', before: 80, after: 90 },
      { field: 'name', before: 'Truck', after: 'Truck 2' },
    ]);
  });

  it('compares arrays whole and finds nothing in equal objects', () => {
    expect(auditDiff({ ids: [1, 2] }, { ids: [1, 2] })).toEqual([]);
    expect(auditDiff({ ids: [1, 2] }, { ids: [2, 1] })).toEqual([{ field: 'ids', before: [1, 2], after: [2, 1] }]);
    expect(auditDiff({ a: { b: 1 } }, { a: null })).toEqual([{ field: 'a', before: { b: 1 }, after: null }]);
  });

  it('reads a creation as every field new and a deletion as every field gone', () => {
    expect(auditDiff(null, { name: 'x' })).toEqual([{ field: 'name', before: undefined, after: 'x' }]);
    expect(auditDiff({ name: 'x' }, null)).toEqual([{ field: 'name', before: 'x', after: undefined }]);
  });
});
