// `npm run simulate -- --create`: adds the simulated devices through the REST API, as an
// administrator would, so a demo is one command. Devices that already exist are left alone.
import { DEMO_FLEET } from '../demo/fleet.ts';

export interface NewSimDevice {
  uniqueId: string;
  name: string;
}

export interface CreateResult {
  created: number;
  existing: number;
}

/** Requests in flight at once: enough to be quick, few enough not to look like an attack. */
const CONCURRENCY = 8;

/** Logs in through the REST API; the session cookie (`JSESSIONID=…`) to send with later requests. */
export async function loginCookie(baseUrl: string, user: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: user, password }),
  });
  if (!res.ok) throw new Error(`login as ${user} at ${baseUrl} failed: HTTP ${res.status} ${(await res.text()).split('\n')[0]}`);
  const cookie = /JSESSIONID=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`login at ${baseUrl} set no session cookie`);
  return cookie;
}

export async function createDevices(
  baseUrl: string,
  credentials: { user: string; password: string },
  devices: readonly NewSimDevice[],
): Promise<CreateResult> {
  const cookie = await loginCookie(baseUrl, credentials.user, credentials.password);
  const listed = await fetch(`${baseUrl}/api/devices?all=true`, { headers: { cookie } });
  if (!listed.ok) throw new Error(`GET /api/devices failed: HTTP ${listed.status}`);
  const known = new Set(((await listed.json()) as Array<{ uniqueId: string }>).map((d) => d.uniqueId));
  const missing = devices.filter((d) => !known.has(d.uniqueId));
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const i = next++;
      const device = missing[i]!;
      const res = await fetch(`${baseUrl}/api/devices`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ ...device, category: DEMO_FLEET[i % DEMO_FLEET.length]!.category }),
      });
      if (!res.ok) throw new Error(`creating ${device.uniqueId} failed: HTTP ${res.status} ${(await res.text()).split('\n')[0]}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, missing.length) }, worker));
  return { created: missing.length, existing: devices.length - missing.length };
}
