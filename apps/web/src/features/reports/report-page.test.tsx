// The report page's states against a stubbed server: nothing loaded yet, loading, rows in the
// user's units, empty, error with retry, and the export asking for the spreadsheet type.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { reportScreen } from './report-page.tsx';
import { XLSX_TYPE } from './report-api.ts';

const pt = texts['pt-BR'];

function renderReport(path: 'travels' | 'stops') {
  const Screen = reportScreen(path);
  const router = createMemoryRouter([{ path: '/reports/:type', element: <Screen /> }], { initialEntries: [`/reports/${path}`] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const json = (body: unknown, status = 200) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' } });

beforeAll(() => initTestI18n());
beforeEach(() => {
  useSession.setState({
    user: { id: 1, name: 'Ana', administrator: true, attributes: {} } as never,
    serverInfo: { server: { attributes: {} } as never, plus: false, allowedDevices: null },
  });
  useLive.setState({ devices: { 7: { id: 7, name: 'Van 7' } as never } });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('report page', () => {
  it('asks to load first, then loads the trips of the period', async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url.startsWith('/api/groups')) return json([]);
      return json([{ deviceId: 7, startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T10:30:00Z', duration: 1_800_000, distance: 20_000, averageSpeed: 21.6, maxSpeed: 40 }]);
    });
    vi.stubGlobal('fetch', fetch);
    renderReport('travels');
    expect(screen.getByText(pt.reports.notLoaded)).toBeTruthy();
    fireEvent.click(screen.getByTestId('report-load'));
    await waitFor(() => expect(screen.getByTestId('report-count').textContent).toBe('1 linha'));
    const url = fetch.mock.calls.map((c) => String(c[0])).find((u) => u.startsWith('/api/reports/trips'))!;
    expect(url).toMatch(/from=.*&to=/);
    // (Row texts are covered by report-rows.test.ts: the virtual list draws nothing without layout here.)
  });

  it('says when the period is empty, and offers a retry after an error', async () => {
    let fail = true;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (url.startsWith('/api/groups')) return json([]);
      if (fail) return json('Report failed', 500);
      return json([]);
    }));
    renderReport('stops');
    fireEvent.click(screen.getByTestId('report-load'));
    await waitFor(() => expect(screen.getByTestId('report-error')).toBeTruthy());
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: pt.reports.retry }));
    await waitFor(() => expect(screen.getByTestId('report-empty').textContent).toBe(pt.reports.empty));
  });

  it("says why the server refused: too many reports at once, a period over the server's limit", async () => {
    let answer = 'Too many reports at once - you may run 2 at a time (history included); wait for one to finish, or cancel it';
    let status = 429;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/api/groups') ? json([]) : json(answer, status))));
    renderReport('stops');
    fireEvent.click(screen.getByTestId('report-load'));
    await waitFor(() => expect(screen.getByTestId('report-error').textContent).toContain(pt.errors.TOO_MANY_REPORTS_AT_ONCE));
    answer = 'Invalid period - reports cover at most 31622400 seconds (366 days); ask for a shorter period';
    status = 400;
    fireEvent.click(screen.getByRole('button', { name: pt.reports.retry }));
    await waitFor(() => expect(screen.getByTestId('report-error').textContent).toContain(pt.errors.INVALID_PERIOD));
  });

  it('exports with the spreadsheet Accept header', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json([]));
    vi.stubGlobal('fetch', fetch);
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    renderReport('stops');
    fireEvent.click(screen.getByTestId('report-load'));
    await waitFor(() => expect(screen.getByTestId('report-empty')).toBeTruthy());
    fireEvent.click(screen.getByTestId('report-export'));
    await waitFor(() => expect(fetch.mock.calls.some(([url, init]) => url.startsWith('/api/reports/stops') && (init?.headers as Record<string, string> | undefined)?.Accept === XLSX_TYPE)).toBe(true));
  });
});
