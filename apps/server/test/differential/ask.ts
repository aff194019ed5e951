// Asks our server every request of requests.ts, in order, as the caller each one names, and
// keeps the answers.
import { TestClient, type TestServer } from '../harness.ts';
import { LiveSocket, SocketRefused } from '../socket-client.ts';
import type { Answer } from './compare.ts';
import type { IdMap } from './id-map.ts';
import { basicHeader } from './replay.ts';
import { ADMIN_EMAIL, ALARM_EVENTS, fill, USER_EMAIL, USER_PASSWORD, type Caller, type DiffRequest, type Values } from './requests.ts';

// The recording asked for JSON everywhere: Traccar's 406 for /api/health (a text/plain
// resource) says so. Asking the same way keeps the answers comparable.
const ACCEPT = { accept: 'application/json' };

export async function askAll(server: TestServer, requests: DiffRequest[], ids: IdMap, range: { from: string; to: string }): Promise<Map<string, Answer>> {
  const our = (kind: 'device' | 'group' | 'user' | 'command', traccarId: number) => String(ids.ours(kind, traccarId) ?? 0);
  const values: Values = {
    dev1: our('device', 1), dev2: our('device', 2), dev3: our('device', 3), grp: our('group', 1), usr: our('user', 2),
    cmd: our('command', 1), alarm: '0', from: range.from, to: range.to,
  };
  const admin = new TestClient(server.url);
  let user: TestClient | null = null;
  const clientFor = async (as: Caller): Promise<TestClient> => {
    if (as === 'admin') return admin;
    const client = new TestClient(server.url);
    if (as === 'badBasic') client.headers.authorization = basicHeader(ADMIN_EMAIL, 'not-the-password');
    if (as === 'user') {
      if (!user) {
        user = client;
        await user.post('/api/session', new URLSearchParams({ email: USER_EMAIL, password: USER_PASSWORD }));
      }
      return user;
    }
    return client;
  };

  const answers = new Map<string, Answer>();
  for (const request of requests) {
    const client = await clientFor(request.as);
    const path = fill(request.path, values);
    if (request.method === 'WS') {
      answers.set(request.name, { status: await upgradeStatus(server.url, path, client.cookie) });
      continue;
    }
    const res = await client.request(request.method, path, request.body?.(values), ACCEPT);
    answers.set(request.name, { status: res.status, json: res.json, text: res.text });
    if (request.name === ALARM_EVENTS && res.status === 200 && Array.isArray(res.json)) {
      const alarm = (res.json as Array<{ id?: unknown }>)[0];
      if (typeof alarm?.id === 'number') values.alarm = String(alarm.id);
    }
  }
  return answers;
}

/** The HTTP status of a websocket upgrade: 101 when it opened, else the refusal's status. */
async function upgradeStatus(baseUrl: string, path: string, cookie: string | null): Promise<number> {
  if (path !== '/api/socket') throw new Error(`only /api/socket is a socket: ${path}`);
  try {
    const socket = await LiveSocket.open(baseUrl, { cookie });
    socket.close();
    return 101;
  } catch (error) {
    if (error instanceof SocketRefused) return error.status;
    throw error;
  }
}
