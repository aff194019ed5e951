// OsmAnd over real HTTP: every Traccar test vector stored as expected, refusals store
// nothing, per-device order and "latest position" rules, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { JSON_VECTORS, QUERY_VECTORS, genericPositionProblems } from '../src/ingest/osmand/osmand-vectors.ts';
import { MPS_TO_KNOTS } from '../src/ingest/osmand/decode-json.ts';
import {
  countPositions, createDevice, deviceRow, osmand, positionsOf, postJson, recordLive, type CreatedDevice,
} from './ingest-helpers.ts';

describe.each(backends)('OsmAnd ingest (%s)', (backend) => {
  let server: TestServer;
  const devices: Record<string, CreatedDevice> = {};

  beforeAll(async () => {
    server = await startTestServer(backend);
    for (const uid of ['902064', '353861053849681', '123456', '861001000719969', '123456789012345', '48241179', '658765', '8737767034']) {
      devices[uid] = await createDevice(server, uid);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Sends a vector, expects 200 with an empty body, returns the row it stored (read right after the answer). */
  async function sendQuery(path: string, uid: string) {
    const before = (await positionsOf(server, devices[uid]!.id)).length;
    const res = await osmand(server, path);
    expect(res).toEqual({ status: 200, text: '' });
    const rows = await positionsOf(server, devices[uid]!.id);
    expect(rows.length).toBe(before + 1);
    const row = rows.at(-1)!;
    const attributes = JSON.parse(row.attributes) as Record<string, unknown>;
    expect(row.protocol).toBe('osmand');
    return { row, attributes };
  }

  function expectValid(row: { fixTime: number; latitude: number; longitude: number; altitude: number; speed: number; course: number; protocol: string; valid: number }, attributes: Record<string, unknown>) {
    expect(row.valid).toBe(1);
    expect(genericPositionProblems({ ...row, attributes })).toEqual([]);
  }

  it('vector 1: ISO time, hdop, altitude; device becomes online with this position as latest', async () => {
    const live = recordLive(server);
    const { row, attributes } = await sendQuery(QUERY_VECTORS[1], '902064');
    expectValid(row, attributes);
    expect(row.fixTime).toBe(Date.parse('2016-01-27T18:55:47Z'));
    expect(row.deviceTime).toBe(row.fixTime);
    expect([row.latitude, row.longitude, row.altitude, row.speed]).toEqual([42.06288, -88.23412, 224, 0]);
    expect(attributes).toMatchObject({ hdop: 6, distance: 0, totalDistance: 0, motion: false });
    expect(Math.abs(row.serverTime - Date.now())).toBeLessThan(10_000);
    const device = await deviceRow(server, devices['902064']!.id);
    expect(device.status).toBe('online');
    expect(device.positionId).toBe(row.id);
    expect(Math.abs(device.lastUpdate! - Date.now())).toBeLessThan(10_000);
    live.stop();
    const published = live.positions().find((p) => p.id === row.id);
    expect(published).toMatchObject({ deviceId: devices['902064']!.id, latitude: 42.06288, fixTime: '2016-01-27T18:55:47.000+00:00' });
    const pushedDevice = live.batches.flatMap((b) => b.devices ?? []).find((d) => d.id === devices['902064']!.id);
    expect(pushedDevice).toMatchObject({ status: 'online', positionId: row.id, uniqueId: '902064' });
  });

  it('vector 2: epoch milliseconds; an older fix than the latest is stored but not latest', async () => {
    const { row } = await sendQuery(QUERY_VECTORS[2], '902064');
    expect(row.fixTime).toBe(1442068686579);
    const device = await deviceRow(server, devices['902064']!.id);
    expect(device.positionId).not.toBe(row.id);
  });

  it('vector 3: id last and a local "yyyy-MM-dd HH:mm:ss" time', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[3], '353861053849681');
    expectValid(row, attributes);
    expect(row.fixTime).toBe(new Date(2014, 5, 4, 9, 10, 11).getTime());
    expect([row.latitude, row.longitude, row.altitude]).toEqual([49.60688, 6.15788, 384.7]);
  });

  it('vector 4: epoch seconds and bearing', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[4], '123456');
    expectValid(row, attributes);
    expect(row.fixTime).toBe(1377177267000);
    expect([row.latitude, row.longitude, row.course]).toEqual([60, 30, 0]);
    expect(attributes.hdop).toBe(0);
  });

  it('vector 5: deviceid, no timestamp (now), unknown keys kept as attributes', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[5], '123456');
    expectValid(row, attributes);
    expect(Math.abs(row.fixTime - Date.now())).toBeLessThan(10_000);
    expect(attributes).toMatchObject({ vacc: 0, hacc: 0, distance: 0, totalDistance: 0 });
    expect((await deviceRow(server, devices['123456']!.id)).positionId).toBe(row.id);
  });

  it('vector 6: batt is stored as batteryLevel', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[6], '861001000719969');
    expectValid(row, attributes);
    expect(attributes.batteryLevel).toBe(87);
    expect(row.altitude).toBeCloseTo(350.059479, 6);
  });

  it('vector 7: location=lat,lon', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[7], '123456');
    expectValid(row, attributes);
    expect([row.latitude, row.longitude]).toEqual([60, 30]);
  });

  it('vector 8: extra attributes typed, speed in knots, motion from speed', async () => {
    const { row, attributes } = await sendQuery(QUERY_VECTORS[8], '123456789012345');
    expectValid(row, attributes);
    expect(row.speed).toBe(40);
    expect(attributes).toMatchObject({ ignition: true, rpm: 933, fuel: 24, motion: true });
  });

  it('vector 9: no id is refused with 400 and nothing is stored', async () => {
    const before = await countPositions(server);
    const res = await osmand(server, QUERY_VECTORS[9]);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id/);
    expect(await countPositions(server)).toBe(before);
  });

  it('vector 10: cells and wifis without coordinates reuse the last fix and keep the network', async () => {
    const latest = await server.rastro.ctx.storage.db.selectFrom('positions').selectAll()
      .where('id', '=', (await deviceRow(server, devices['123456']!.id)).positionId!).executeTakeFirstOrThrow();
    const { row } = await sendQuery(QUERY_VECTORS[10], '123456');
    expect(row.deviceTime).toBe(1377177267000);
    expect(row.fixTime).toBe(latest.fixTime);
    expect([row.latitude, row.longitude]).toEqual([latest.latitude, latest.longitude]);
    expect(JSON.parse(row.network!)).toEqual({
      radioType: 'gsm',
      considerIp: false,
      cellTowers: [
        { cellId: 2224, locationAreaCode: 16, mobileCountryCode: 257, mobileNetworkCode: 2 },
        { cellId: 2223, locationAreaCode: 16, mobileCountryCode: 257, mobileNetworkCode: 2, signalStrength: -90 },
      ],
      wifiAccessPoints: [
        { macAddress: '00:14:22:01:23:45', signalStrength: -80 },
        { macAddress: '00:1C:B3:09:85:15', signalStrength: -70 },
      ],
    });
  });

  it('the query form also works as an urlencoded POST body', async () => {
    const res = await osmand(server, '/', {
      method: 'POST',
      body: 'id=861001000719969&lat=41.7&lon=-0.9&timestamp=1700000000&batt=55',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    const row = (await positionsOf(server, devices['861001000719969']!.id)).at(-1)!;
    expect([row.latitude, row.fixTime]).toEqual([41.7, 1_700_000_000_000]);
    expect(JSON.parse(row.attributes).batteryLevel).toBe(55);
  });

  async function sendJson(key: keyof typeof JSON_VECTORS, uid: string) {
    const res = await postJson(server, JSON_VECTORS[key]);
    expect(res).toEqual({ status: 200, text: '' });
    const row = (await positionsOf(server, devices[uid]!.id)).at(-1)!;
    return { row, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
  }

  it('J1: JSON form with motion, odometer, event, activity and battery', async () => {
    const { row, attributes } = await sendJson('J1', '48241179');
    expectValid(row, attributes);
    expect(row.fixTime).toBe(Date.parse('2025-06-15T13:45:12.862Z'));
    expect([row.latitude, row.longitude, row.altitude, row.speed]).toEqual([37.4219983, -122.084, 5, 0]);
    expect(attributes).toMatchObject({ motion: false, odometer: 0, event: 'motionchange', activity: 'still', batteryLevel: 100 });
  });

  it('J2: JSON extras become typed attributes', async () => {
    const { attributes } = await sendJson('J2', '48241179');
    expect(attributes).toMatchObject({
      device_string_test: 'long_device_id', device_bool_test: true, device_bool_false_test: false,
      device_integer_test: 1, device_integer_twelve_test: 12, device_double_test: 1.345,
      device_very_long_double_test: 1763636.3442,
    });
  });

  it('J3: JSON -1 speed, heading and battery are unknown', async () => {
    const { row, attributes } = await sendJson('J3', '658765');
    expectValid(row, attributes);
    expect([row.speed, row.course]).toEqual([0, 0]);
    expect(attributes.batteryLevel).toBeUndefined();
    expect(attributes.mock).toBe(true);
  });

  it('J4: JSON speed in m/s is stored in knots', async () => {
    const { row, attributes } = await sendJson('J4', '8737767034');
    expectValid(row, attributes);
    expect(row.speed).toBeCloseTo(18.67 * MPS_TO_KNOTS, 6);
    expect(row.course).toBe(63);
    expect(attributes.batteryLevel).toBe(79);
  });

  it('refusals answer 4xx and store nothing', async () => {
    const disabled = await createDevice(server, 'disabled-1', { disabled: true });
    const expired = await createDevice(server, 'expired-1', { expirationTime: '2020-01-01T00:00:00.000+00:00' });
    const before = await countPositions(server);
    const cases: Array<[string, Promise<{ status: number; text: string }>, number]> = [
      ['unknown id (query)', osmand(server, '/?id=nobody&lat=1&lon=2'), 400],
      ['unknown id (JSON)', postJson(server, JSON_VECTORS.J1.replace('48241179"}', 'nobody"}')), 404],
      ['missing id', osmand(server, '/?lat=1&lon=2'), 400],
      ['latitude 91', osmand(server, '/?id=123456&lat=91&lon=2'), 400],
      ['longitude 181', osmand(server, '/?id=123456&lat=1&lon=181'), 400],
      ['garbage body', osmand(server, '/', { method: 'POST', body: Buffer.from([0x25, 0xff, 0x00, 0x26, 0x3d, 0x3d, 0x25]) }), 400],
      ['broken JSON', osmand(server, '/', { method: 'POST', body: '{"device_id":"123456","location":', headers: { 'content-type': 'application/json' } }), 400],
      ['JSON bad latitude', postJson(server, '{"device_id":"123456","location":{"coords":{"latitude":-95,"longitude":1}}}'), 400],
      ['1 MB body', osmand(server, '/', { method: 'POST', body: Buffer.alloc(1024 * 1024, 0x61) }), 413],
      ['1 MB JSON body', osmand(server, '/', { method: 'POST', body: `{"device_id":"123456","x":"${'a'.repeat(1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } }), 413],
      ['malformed % encoding', osmand(server, '/?id=%E0%A4%A&lat=%ZZ&lon=1'), 400],
      ['disabled device', osmand(server, `/?id=${disabled.uniqueId}&lat=1&lon=2`), 400],
      ['expired device', osmand(server, `/?id=${expired.uniqueId}&lat=1&lon=2`), 400],
      ['bad timestamp', osmand(server, '/?id=123456&lat=1&lon=2&timestamp=soon'), 400],
    ];
    for (const [name, pending, status] of cases) {
      const res = await pending;
      expect({ name, status: res.status }).toEqual({ name, status });
      if (status === 400) expect(res.text.length).toBeGreaterThan(0);
    }
    expect(await countPositions(server)).toBe(before);
    // Still alive and serving.
    expect((await osmand(server, '/?id=123456&lat=1&lon=2')).status).toBe(200);
  });

  it('oversized headers and a broken request line do not take the server down', async () => {
    const big = await osmand(server, '/?id=123456', { headers: { 'x-big': 'a'.repeat(64 * 1024) } });
    expect(big.status).toBe(431);
    const net = await import('node:net');
    const url = new URL(server.osmandUrl);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write('NONSENSE\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await osmand(server, '/?id=123456&lat=1&lon=2')).status).toBe(200);
  });

  it('a sender too slow with its request is cut off with 408, and the port keeps serving', async () => {
    const { startOsmandServer } = await import('../src/ingest/osmand/osmand-server.ts');
    const ctx = server.rastro.ctx;
    const slowPort = await startOsmandServer(ctx, ctx.processing!.pipeline, {
      host: '127.0.0.1', port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100,
    });
    try {
      const net = await import('node:net');
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(slowPort.port, '127.0.0.1', () => socket.write('GET /?id=123456&lat=1&lon=2 HTTP/1.1\r\nHost: x\r\n'));
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await slowPort.close();
    }
    expect((await osmand(server, '/?id=123456&lat=1&lon=2')).status).toBe(200);
  });

  it('500 concurrent messages of one device: all stored, latest = newest fix, published fixes never go back', async () => {
    const device = await createDevice(server, 'burst-1');
    const live = recordLive(server);
    const base = 1_700_000_000;
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        osmand(server, `/?id=burst-1&timestamp=${base + i}&lat=${(10 + i * 0.001).toFixed(3)}&lon=20&speed=${i % 7}`).then((r) => expect(r.status).toBe(200)),
      ),
    );
    live.stop();
    const rows = await positionsOf(server, device.id);
    expect(rows.length).toBe(500);
    const newest = rows.reduce((a, b) => (b.fixTime > a.fixTime ? b : a));
    expect(newest.fixTime).toBe((base + 499) * 1000);
    expect((await deviceRow(server, device.id)).positionId).toBe(newest.id);

    // In storage order, a row that did not advance the fix time was not latest and has distance 0;
    // the odometer never decreases.
    let maxFix = 0;
    let total = 0;
    for (const row of rows) {
      const attrs = JSON.parse(row.attributes) as { distance: number; totalDistance: number };
      if (row.fixTime < maxFix) expect(attrs.distance).toBe(0);
      expect(attrs.totalDistance).toBeGreaterThanOrEqual(total);
      total = attrs.totalDistance;
      maxFix = Math.max(maxFix, row.fixTime);
    }
    const published = live.positions().filter((p) => p.deviceId === device.id).map((p) => Date.parse(p.fixTime));
    expect(published.length).toBeGreaterThan(0);
    expect(published).toEqual([...published].sort((a, b) => a - b));
    expect(published.at(-1)).toBe(newest.fixTime);
    // Batched: far fewer live batches than messages.
    expect(live.batches.length).toBeLessThan(250);
  });

  it('an out-of-order message is stored but neither becomes latest nor is published', async () => {
    const device = await createDevice(server, 'order-1');
    expect((await osmand(server, '/?id=order-1&timestamp=1700000100&lat=1&lon=1')).status).toBe(200);
    const first = (await positionsOf(server, device.id))[0]!;
    const live = recordLive(server);
    expect((await osmand(server, '/?id=order-1&timestamp=1700000000&lat=2&lon=2')).status).toBe(200);
    live.stop();
    const rows = await positionsOf(server, device.id);
    expect(rows.length).toBe(2);
    expect(rows[1]!.fixTime).toBe(1_700_000_000_000);
    const device2 = await deviceRow(server, device.id);
    expect(device2.positionId).toBe(first.id);
    expect(device2.status).toBe('online');
    expect(live.positions().filter((p) => p.deviceId === device.id)).toEqual([]);
    // The device still reports a sign of life.
    expect(live.batches.flatMap((b) => b.devices ?? []).some((d) => d.id === device.id && d.positionId === first.id)).toBe(true);
  });

  it('distance and totalDistance accumulate along the latest positions (haversine, R = 6,378,137 m)', async () => {
    const device = await createDevice(server, 'odo-1');
    for (const [t, lat] of [[1, 0], [2, 0.01], [3, 0.02]] as const) {
      expect((await osmand(server, `/?id=odo-1&timestamp=${1_700_000_000 + t}&lat=${lat}&lon=0`)).status).toBe(200);
    }
    const attrs = (await positionsOf(server, device.id)).map((r) => JSON.parse(r.attributes) as { distance: number; totalDistance: number });
    // Full precision, as Traccar.
    const step = ((0.01 * Math.PI) / 180) * 6_378_137;
    expect(attrs[1]!.distance).toBeCloseTo(step, 9);
    expect(attrs[2]!.distance).toBeCloseTo(step, 9);
    expect(attrs[2]!.totalDistance).toBeCloseTo(2 * step, 9);
  });

  it('after PUT /api/devices/:id/accumulators the odometer continues from the new total', async () => {
    const device = await createDevice(server, 'acc-1');
    expect((await osmand(server, '/?id=acc-1&timestamp=1700000001&lat=0&lon=0')).status).toBe(200);
    const admin = await server.admin();
    const res = await admin.put(`/api/devices/${device.id}/accumulators`, { deviceId: device.id, totalDistance: 100_000 });
    expect(res.status).toBe(204);
    // The device cache follows the change asynchronously; give it a moment.
    await new Promise((r) => setTimeout(r, 200));
    expect((await osmand(server, '/?id=acc-1&timestamp=1700000002&lat=0.01&lon=0')).status).toBe(200);
    const last = (await positionsOf(server, device.id)).at(-1)!;
    const attrs = JSON.parse(last.attributes) as { distance: number; totalDistance: number };
    expect(attrs.distance).toBeGreaterThan(1000);
    expect(attrs.totalDistance).toBeCloseTo(100_000 + attrs.distance, 2);
    expect((await deviceRow(server, device.id)).positionId).toBe(last.id);
  });

  it('a notificationToken is kept on the device once', async () => {
    const device = await createDevice(server, 'token-1');
    for (let i = 0; i < 2; i++) {
      expect((await osmand(server, '/?id=token-1&lat=1&lon=1&notificationToken=abc123')).status).toBe(200);
    }
    expect((await osmand(server, '/?id=token-1&lat=1&lon=1&notificationToken=def456')).status).toBe(200);
    const row = await deviceRow(server, device.id);
    expect(JSON.parse(row.attributes).notificationTokens).toBe('abc123,def456');
    expect((await positionsOf(server, device.id)).length).toBe(3);
  });

  it('a device created through the API is accepted at once, and a removed one refused', async () => {
    const device = await createDevice(server, 'fresh-1');
    expect((await osmand(server, '/?id=fresh-1&lat=1&lon=1')).status).toBe(200);
    await server.rastro.ctx.storage.db.deleteFrom('devices').where('id', '=', device.id).execute();
    server.rastro.ctx.changes.publish({ kind: 'deviceRemoved', id: device.id });
    expect((await osmand(server, '/?id=fresh-1&lat=1&lon=1')).status).toBe(400);
  });
});
