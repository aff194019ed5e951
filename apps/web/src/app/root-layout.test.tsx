// The guard as wired in the root route's loader, against a fetch stub.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from './session-store.ts';
import { rootLoader } from './root-layout.tsx';

vi.mock('./shell/shell.tsx', () => ({ Component: () => null }));

const routes: Record<string, () => Response> = {};
let requested: string[];

beforeEach(() => {
  requested = [];
  localStorage.clear();
  useSession.setState({ user: null, serverInfo: null, expired: false });
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    requested.push(url);
    const answer = routes[url];
    return answer ? answer() : new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  }));
  routes['/api/server'] = () => new Response(JSON.stringify({ id: 1, registration: false, attributes: {} }), { headers: { 'content-type': 'application/json', licensemode: 'plus' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete routes['/api/session'];
});

async function outcome(path: string): Promise<string> {
  try {
    await rootLoader({ request: new Request(`http://localhost${path}`), params: {}, context: undefined } as never);
    return 'allow';
  } catch (thrown) {
    if (thrown instanceof Response) return `redirect ${thrown.headers.get('Location')}`;
    throw thrown;
  }
}

describe('root loader (navigation guard)', () => {
  it('public routes pass without any call', async () => {
    expect(await outcome('/login?to=%2Fhome')).toBe('allow');
    expect(await outcome('/share/abc')).toBe('allow');
    expect(requested).toEqual([]);
  });

  it('no session: server info, then the session, then the login with ?to=', async () => {
    expect(await outcome('/devices/4')).toBe('redirect /login?to=%2Fdevices%2F4');
    expect(requested).toEqual(['/api/server', '/api/session']);
    expect(useSession.getState().serverInfo?.plus).toBe(true);
  });

  it('server info failing goes to /maintenance with ?to=', async () => {
    routes['/api/server'] = () => new Response('down', { status: 503 });
    expect(await outcome('/history')).toBe('redirect /maintenance?to=%2Fhistory');
  });

  it('a restored session lets the navigation through and keeps the user', async () => {
    routes['/api/session'] = () => new Response(JSON.stringify({ id: 1, name: 'Ana', attributes: {} }), { headers: { 'content-type': 'application/json' } });
    expect(await outcome('/reports/stops')).toBe('allow');
    expect(useSession.getState().user?.name).toBe('Ana');
    // Later navigations pass at once.
    requested = [];
    expect(await outcome('/geofence')).toBe('allow');
    expect(requested).toEqual([]);
  });

  it('QR drivers are kept on their screen', async () => {
    useSession.setState({ user: { id: 5, name: 'João', attributes: { 'tarkan.isQrDriverId': 'D1' } } as never });
    expect(await outcome('/home')).toBe('redirect /qr-driver');
    expect(await outcome('/qr-driver/scan/3')).toBe('allow');
  });
});
