import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Position } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf } from './openapi.ts';
import { addPosition, create, link, makeUser, setServer, type TestUser } from './visibility-fixtures.ts';

const T0 = Date.parse('2024-06-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('positions (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let mine: Device;
  let other: Device;
  let silent: Device;
  const history: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    user = await makeUser(server, 'pos-user@test');
    mine = await create<Device>(admin, '/api/devices', { name: 'Mine', uniqueId: 'pos-1' });
    other = await create<Device>(admin, '/api/devices', { name: 'Other', uniqueId: 'pos-2' });
    silent = await create<Device>(admin, '/api/devices', { name: 'Silent', uniqueId: 'pos-3' });
    await link(server, 'userDevice', user.row.id, mine.id);
    await link(server, 'userDevice', user.row.id, silent.id);
    // Stored out of order on purpose: history must come back by fixTime.
    for (const minutes of [30, 10, 20, 40]) {
      const p = await addPosition(server, mine.id, { fixTime: T0 + minutes * 60_000, deviceTime: T0 + minutes * 60_000 });
      history.push(p.id);
    }
    // The latest stored position is what devices.positionId points at.
    await addPosition(server, mine.id, {
      fixTime: T0 + 50 * 60_000, address: 'Av. Paulista, 1000',
      network: JSON.stringify({ radioType: 'gsm', cellTowers: [{ cellId: 1, locationAreaCode: 2, mobileCountryCode: 724, mobileNetworkCode: 5 }] }),
      geofenceIds: JSON.stringify([3, 4]), attributes: JSON.stringify({ ignition: true }),
    });
    await addPosition(server, other.id, { fixTime: T0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('without parameters answers the latest position of every visible device', async () => {
    const res = await user.client.get<Position[]>('/api/positions');
    expect(res.status).toBe(200);
    expectArrayOf(res.json, 'Position');
    expect(res.json).toHaveLength(1);
    const p = res.json[0]!;
    expect(p).toMatchObject({
      deviceId: mine.id, fixTime: '2024-06-01T12:50:00.000+00:00', address: 'Av. Paulista, 1000', geofenceIds: [3, 4],
      network: { radioType: 'gsm' }, attributes: { ignition: true }, valid: true, protocol: 'osmand',
    });
    expect(p.id).toBe((await admin.get<Device>(`/api/devices/${mine.id}`)).json.positionId);
    expect(Object.keys(p)).not.toContain('outdated');
    const all = await admin.get<Position[]>('/api/positions');
    expect(all.json.map((x) => x.deviceId).sort()).toEqual([mine.id, other.id].sort());
    // Empty ones are null, never left out: Traccar always sends the three.
    const plain = all.json.find((x) => x.deviceId === other.id)!;
    expect(plain).toMatchObject({ address: null, network: null, geofenceIds: null });
  });

  it('with deviceId only answers that device\'s latest position (0 or 1 element)', async () => {
    const latest = await user.client.get<Position[]>(`/api/positions?deviceId=${mine.id}`);
    expect(latest.json).toHaveLength(1);
    expect(latest.json[0]!.fixTime).toBe('2024-06-01T12:50:00.000+00:00');
    expect((await user.client.get<Position[]>(`/api/positions?deviceId=${silent.id}`)).json).toEqual([]);
    expect((await user.client.get(`/api/positions?deviceId=${other.id}`)).status).toBe(400);
  });

  it('with deviceId, from and to answers the history ordered by fixTime', async () => {
    const from = encodeURIComponent(iso(T0 + 10 * 60_000));
    const to = encodeURIComponent('2024-06-01T09:35:00-03:00'); // 12:35 UTC, an offset is accepted
    const res = await user.client.get<Position[]>(`/api/positions?deviceId=${mine.id}&from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    expectArrayOf(res.json, 'Position');
    expect(res.json.map((p) => p.fixTime)).toEqual([
      '2024-06-01T12:10:00.000+00:00', '2024-06-01T12:20:00.000+00:00', '2024-06-01T12:30:00.000+00:00',
    ]);
    expect((await user.client.get(`/api/positions?deviceId=${other.id}&from=${from}&to=${to}`)).status).toBe(400);
  });

  it('refuses bad or incomplete history requests with a message', async () => {
    const ok = encodeURIComponent(iso(T0));
    const bad = [
      `deviceId=${mine.id}&from=yesterday&to=${ok}`,
      `deviceId=${mine.id}&from=2024-06-01T10:00:00&to=${ok}`, // no offset: Traccar refuses zone-less dates
      `deviceId=${mine.id}&from=${ok}`,
      `from=${ok}&to=${ok}`,
      `deviceId=${mine.id}&from=${encodeURIComponent(iso(T0 + 1))}&to=${ok}`,
      `id=-1`,
    ];
    for (const query of bad) {
      const res = await user.client.get(`/api/positions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.text.split('\n')[0], query).toMatch(/ - /);
    }
    // An id that is no number at all is a 404, as Traccar answers a parameter it cannot read.
    for (const query of ['deviceId=abc', 'id=x', `deviceId=abc&from=${ok}&to=${ok}`]) {
      const res = await user.client.get(`/api/positions?${query}`);
      expect(res.status, query).toBe(404);
      expect(res.text, query).toMatch(/^Invalid (deviceId|id) - "\w+" is not a whole number/);
    }
  });

  it('with id answers those positions, leaving out other devices\' like missing ones', async () => {
    const res = await user.client.get<Position[]>(`/api/positions?id=${history[2]}&id=${history[0]}&id=987654`);
    expect(res.status).toBe(200);
    expect(res.json.map((p) => p.id)).toEqual([history[2], history[0]]);
    const foreign = (await admin.get<Position[]>(`/api/positions?deviceId=${other.id}`)).json[0]!;
    // Not "access denied": that would tell a foreign position from a missing one.
    const mixed = await user.client.get<Position[]>(`/api/positions?id=${history[0]}&id=${foreign.id}`);
    expect(mixed.status).toBe(200);
    expect(mixed.json.map((p) => p.id)).toEqual([history[0]]);
    // Any number of ids is answered (queried in slices).
    const ids = [...Array.from({ length: 1500 }, (_, i) => 900_000 + i), ...history];
    const many = await admin.get<Position[]>(`/api/positions?${ids.map((id) => `id=${id}`).join('&')}`);
    expect(many.status).toBe(200);
    expect(many.json.map((p) => p.id)).toEqual(history);
  });

  it('refuses history and positions by id when reports are disabled', async () => {
    const from = encodeURIComponent(iso(T0));
    const to = encodeURIComponent(iso(T0 + 3600_000));
    const restricted = await makeUser(server, 'pos-noreports@test', { disableReports: 1 });
    await link(server, 'userDevice', restricted.row.id, mine.id);
    const res = await restricted.client.get(`/api/positions?deviceId=${mine.id}&from=${from}&to=${to}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Reports are disabled/);
    expect((await restricted.client.get(`/api/positions?id=${history[0]}`)).status).toBe(400);
    // The latest positions stay available.
    expect((await restricted.client.get<Position[]>('/api/positions')).json).toHaveLength(1);

    await setServer(server, { disableReports: 1 });
    try {
      expect((await user.client.get(`/api/positions?deviceId=${mine.id}&from=${from}&to=${to}`)).status).toBe(400);
      expect((await admin.get(`/api/positions?deviceId=${mine.id}&from=${from}&to=${to}`)).status).toBe(200);
    } finally {
      await setServer(server, { disableReports: 0 });
    }
    expect((await user.client.get(`/api/positions?deviceId=${mine.id}&from=${from}&to=${to}`)).status).toBe(200);
  });
});
