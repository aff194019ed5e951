// The clock warning against a stubbed server: nothing while the clock is fine, the offset and
// the fix when it is ahead or behind, and a decoder.timezone the server does not understand.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DeviceClock } from '@rastro/domain/device-clock';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { ClockWarning } from './clock-warning.tsx';

const pt = texts['pt-BR'];
const H = 3_600_000;

function renderWarning(clock: Partial<DeviceClock>) {
  const body: DeviceClock = {
    deviceId: 7, state: 'ok', offset: 0, fixTime: '2026-01-01T10:00:00Z', serverTime: '2026-01-01T10:00:00Z', tolerance: 600_000,
    timezone: null, timezoneValid: true, ...clock,
  };
  const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ClockWarning deviceId={7} reported />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetch;
}

beforeAll(() => initTestI18n());
beforeEach(() => {
  useSession.setState({
    user: { id: 1, name: 'Ana', administrator: true, userLimit: 0, attributes: {} } as never,
    serverInfo: { server: { attributes: {} } as never, plus: false, allowedDevices: null },
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('clock warning', () => {
  it('stays hidden while the clock is fine', async () => {
    const fetch = renderWarning({ state: 'ok' });
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/devices/7/clock');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('device-clock-warning')).toBeNull();
  });

  it('ahead: says by how much and how to fix it', async () => {
    renderWarning({ state: 'ahead', offset: 8 * H + 4000 });
    const alert = await screen.findByTestId('device-clock-warning');
    expect(alert.textContent).toContain(pt.device.clock.aheadTitle);
    expect(alert.textContent).toContain('8 h');
    expect(alert.textContent).toContain(pt.device.clock.fix);
    expect(screen.getByRole('button', { name: pt.device.clock.edit })).toBeTruthy();
  });

  it('behind, in hours and minutes', async () => {
    renderWarning({ state: 'behind', offset: -(5 * H + 30 * 60_000) });
    const alert = await screen.findByTestId('device-clock-warning');
    expect(alert.textContent).toContain(pt.device.clock.behindTitle);
    expect(alert.textContent).toContain('5 h 30 min');
  });

  it('a decoder.timezone the server does not understand', async () => {
    renderWarning({ state: 'ok', timezone: 'Brasilia', timezoneValid: false });
    const alert = await screen.findByTestId('device-clock-warning');
    expect(alert.textContent).toContain(pt.device.clock.timezoneTitle);
    expect(alert.textContent).toContain('"Brasilia"');
  });
});
