import { describe, expect, it, vi } from 'vitest';
import { driverRedirect, guard, loginRedirect, safeMaintenanceReturn, safeReturnPath, type GuardDeps } from './guard.ts';

function deps(over: Partial<GuardDeps> = {}): GuardDeps {
  return {
    hasSession: () => false,
    loadServerInfo: vi.fn(async () => undefined),
    restoreSession: vi.fn(async () => undefined),
    loadUserData: vi.fn(async () => undefined),
    ...over,
  };
}

describe('navigation guard (spec §2)', () => {
  it('lets public routes pass without loading anything', async () => {
    const d = deps();
    for (const p of ['/login', '/share/abc', '/register', '/login/recover/tok', '/motorista', '/maintenance']) {
      expect(await guard(p, d)).toEqual({ allow: true });
    }
    expect(d.loadServerInfo).not.toHaveBeenCalled();
  });
  it('loads server info, then the session, then user data, in that order', async () => {
    const order: string[] = [];
    const d = deps({
      loadServerInfo: async () => void order.push('server'),
      restoreSession: async () => void order.push('session'),
      loadUserData: async () => void order.push('data'),
    });
    expect(await guard('/devices', d)).toEqual({ allow: true });
    expect(order).toEqual(['server', 'session', 'data']);
  });
  it('goes to /maintenance when server info fails', async () => {
    expect(await guard('/home', deps({ loadServerInfo: async () => { throw new Error('down'); } }))).toEqual({ redirect: '/maintenance?to=%2Fhome' });
  });
  it('goes to /login?to= on a session failure, /motorista?to= for driver routes', async () => {
    const noSession = deps({ restoreSession: async () => { throw new Error('401'); } });
    expect(await guard('/reports/stops?x=1', noSession)).toEqual({ redirect: '/login?to=%2Freports%2Fstops%3Fx%3D1' });
    expect(await guard('/qr-driver/scan/7', noSession)).toEqual({ redirect: '/motorista?to=%2Fqr-driver%2Fscan%2F7' });
    expect(loginRedirect('/qr-driver')).toBe('/motorista?to=%2Fqr-driver');
  });
  it('passes at once when a session exists', async () => {
    const d = deps({ hasSession: () => true });
    expect(await guard('/users', d)).toEqual({ allow: true });
    expect(d.loadServerInfo).not.toHaveBeenCalled();
  });
  it('returns only to same-site, non-public paths', () => {
    expect(safeReturnPath('/devices/3')).toBe('/devices/3');
    expect(safeReturnPath('//evil.example')).toBeNull();
    expect(safeReturnPath('https://evil.example')).toBeNull();
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
  it('comes back from /maintenance to any same-site path but itself', () => {
    expect(safeMaintenanceReturn('/login?to=%2Fdevices')).toBe('/login?to=%2Fdevices');
    expect(safeMaintenanceReturn('/reports/stops')).toBe('/reports/stops');
    expect(safeMaintenanceReturn('/maintenance')).toBeNull();
    expect(safeMaintenanceReturn('/maintenance?to=%2Fhome')).toBeNull();
    expect(safeMaintenanceReturn('//evil.example')).toBeNull();
    expect(safeMaintenanceReturn(null)).toBeNull();
  });
  it('keeps QR drivers on their screen', () => {
    expect(driverRedirect('/home', true)).toBe('/qr-driver');
    expect(driverRedirect('/devices/4', true)).toBe('/qr-driver');
    expect(driverRedirect('/qr-driver/scan/4', true)).toBeNull();
    expect(driverRedirect('/login', true)).toBeNull();
    expect(driverRedirect('/home', false)).toBeNull();
  });
});
