// The contract helper itself: the Traccar OpenAPI file is there, every schema compiles, and a
// mismatch fails with a message that says where and what.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, expectArrayOf, expectResponse, expectSchema, openApiDocument, schemaErrors, schemaNames } from './openapi.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('Traccar OpenAPI contract helper', () => {
  it('loads the shared OpenAPI 3.1 file with the schemas the API uses', () => {
    expect(openApiDocument().openapi).toMatch(/^3\.1/);
    expect(schemaNames()).toEqual(expect.arrayContaining(['User', 'Server', 'Device', 'Group', 'Position', 'Permission', 'Event']));
    expect(Object.keys(openApiDocument().paths)).toEqual(expect.arrayContaining(['/session', '/devices', '/positions']));
  });

  it('compiles every schema of components.schemas', () => {
    for (const name of schemaNames()) {
      expect(() => schemaErrors({}, name), name).not.toThrow();
      expect(() => schemaErrors({}, name, { strictNulls: true }), name).not.toThrow();
    }
  });

  it('accepts a Traccar-shaped device, including the nullable fields', () => {
    const device = {
      id: 1, name: 'Truck 1', uniqueId: '123456', status: 'online', disabled: false,
      lastUpdate: '2024-05-01T10:20:30.000+00:00', positionId: null, groupId: null,
      phone: null, model: null, contact: null, category: 'truck', attributes: {},
    };
    expect(expectSchema(device, 'Device')).toBe(device);
    expect(expectArrayOf([device, { ...device, id: 2, positionId: 7 }], 'Device')).toHaveLength(2);
  });

  it('accepts null for optional fields, as Traccar serialises them, unless strictNulls is asked', () => {
    const server = { id: 1, registration: false, map: null, bingKey: null, zoom: 12, attributes: {} };
    expect(() => expectSchema(server, 'Server')).not.toThrow();
    expect(() => expectSchema(server, 'Server', { strictNulls: true })).toThrow(/\/map must be string \(got null\)/);
    expect(() => expectSchema({ ...server, map: 7 }, 'Server')).toThrow(/\/map must be string or null \(got 7\)/);
    expect(() => expectSchema({ id: 1, type: 'deviceOnline', eventTime: 'yesterday' }, 'Event')).toThrow(/eventTime must match format/);
  });

  it('fails with the path, the rule and the value of each mismatch', () => {
    const bad = { id: 'seven', name: 'x', administrator: 'yes', expirationTime: 'tomorrow', attributes: {} };
    let message = '';
    try {
      expectSchema(bad, 'User');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('schema User');
    expect(message).toContain('/id must be integer or null (got "seven")');
    expect(message).toContain('/administrator must be boolean or null (got "yes")');
    expect(message).toContain('/expirationTime must match format "date-time" (got "tomorrow")');
  });

  it('names the item of an array that does not match', () => {
    expect(() => expectArrayOf([{ id: 1 }, { id: 1.5 }], 'Group')).toThrow(/\[1\]\/id must/);
    expect(() => expectArrayOf({} as unknown as unknown[], 'Group')).toThrow(/Expected an array of Group/);
    expect(() => expectArrayOf([], 'Group', { minLength: 1 })).toThrow(/at least 1/);
  });

  it('checks a response against the documented operation: status and body schema', () => {
    const device = { id: 3, name: 'Van', uniqueId: '42', attributes: {} };
    expect(expectResponse('GET', '/devices', { status: 200, json: [device] })).toEqual([device]);
    expect(expectResponse('POST', '/permissions', { status: 204, json: undefined })).toBeUndefined();
    expect(() => expectResponse('GET', '/devices', { status: 200, json: [{ ...device, id: 'x' }] })).toThrow(/GET \/devices 200 does not match[\s\S]*\/0\/id must be integer/);
    expect(() => expectResponse('GET', '/devices', { status: 200, json: device })).toThrow(/must be array/);
    expect(() => expectResponse('POST', '/permissions', { status: 200, json: {}, text: '{}' })).toThrow(/answered 200, which the OpenAPI file does not document \(documented: 204, 400\)/);
    expect(() => expectResponse('GET', '/vehicles', { status: 200, json: [] })).toThrow(/no operation GET \/vehicles/);
  });

  it('refuses an unknown schema name', () => {
    expect(() => expectSchema({}, 'Vehicle')).toThrow(/No schema "Vehicle"/);
  });

  it('fails loudly when the OpenAPI file is missing', () => {
    const script = "import('./apps/server/test/openapi.ts').then((m) => m.schemaNames()).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(3); })";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: repoRoot,
      env: { ...process.env, RASTRO_OPENAPI_FILE: path.join(repoRoot, 'no-such-dir', 'traccar-openapi.yaml') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('Traccar OpenAPI contract not found');
    expect(OPENAPI_FILE).toMatch(/traccar-openapi\.yaml$/);
  });
});
