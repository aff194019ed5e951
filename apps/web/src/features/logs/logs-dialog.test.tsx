// The log viewer against a stubbed server: the scope's route with the period and page, the rows
// as sentences with their changes, search, sort by date / user / IP, the empty and error states,
// and older pages on demand.
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AuditRow } from '@rastro/domain/audit';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { loadTexts } from '../../i18n/texts.ts';
import { useLive } from '../../live/live-store.ts';
import { fakeLayout, json, newClient, Providers, stubFetch, text, type Call } from '../../ui/collection/test-kit.tsx';
import type { LogScope } from '../../app/shell/shell-dialogs.ts';
import LogsDialog from './logs-dialog.tsx';

const pt = texts['pt-BR'];
const l = pt.logs;

let next = 0;
const row = (fields: Partial<AuditRow>): AuditRow => ({
  id: ++next, created_at: '2024-05-01T12:00:00.000Z', code: 101, userId: 1, username: 'admin', userIp: '10.0.0.1', userAgent: null,
  objectType: 'user', objectId: 1, data: { email: 'admin' }, old: null, status: 200, ...fields,
});

const ROWS = [
  row({ created_at: '2024-05-01T12:00:00Z', username: 'bruno@x.com', userIp: '10.0.0.10' }),
  row({ created_at: '2024-05-01T13:00:00Z', username: 'ana@x.com', userIp: '10.0.0.9', code: 301, objectType: 'device', objectId: 7,
    old: { id: 7, name: 'Caminhão 7', phone: '1111' }, data: { id: 7, name: 'Caminhão 7', phone: '2222' },
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36' }),
  row({ created_at: '2024-05-01T11:00:00Z', username: 'carla@x.com', userIp: '9.1.1.1', status: 401, userId: null, data: { email: 'carla@x.com' } }),
];

async function open(scope: LogScope) {
  await act(async () => {
    render(
      <Providers client={newClient()}>
        <Suspense fallback="…">
          <LogsDialog dialog={{ kind: 'logs', scope }} onClose={vi.fn()} />
        </Suspense>
      </Providers>,
    );
  });
}

const users = () => screen.getAllByTestId('logs-row').map((r) => r.querySelector('.lg-col-user')!.textContent);
const logCalls = (calls: Call[]) => calls.filter((c) => c.url.includes('/logs'));

let restoreLayout: () => void;
beforeAll(async () => {
  await initTestI18n('pt-BR');
  await loadTexts(['shell', 'logs']);
  restoreLayout = fakeLayout();
}, 20_000);
afterAll(() => restoreLayout());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
vi.setConfig({ testTimeout: 20_000 });

describe('logs dialog', () => {
  it('reads the last 7 days of the whole server, newest first, as sentences with their changes', async () => {
    const calls = stubFetch((call) => (call.url.startsWith('/api/server/logs') ? json(ROWS) : text('no', 500)));
    await open({ kind: 'all' });
    expect(await screen.findByText(l.title.all)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('logs-row')).toHaveLength(3));
    const [call] = logCalls(calls);
    const url = new URL(call!.url, 'http://x');
    expect(url.pathname).toBe('/api/server/logs');
    expect(url.searchParams.get('limit')).toBe('500');
    expect(url.searchParams.get('offset')).toBe('0');
    const days = (Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)) / 86_400_000;
    expect(days).toBeCloseTo(7, 1);
    expect(users()).toEqual(['ana@x.com', 'bruno@x.com', 'carla@x.com']);
    const edited = screen.getAllByTestId('logs-row')[0]!;
    expect(within(edited).getByText('Editou o dispositivo Caminhão 7')).toBeTruthy();
    expect(within(edited).getByText('phone: 1111 → 2222')).toBeTruthy();
    expect(within(edited).getByText('Chrome 124 · Android 14 · Pixel 8')).toBeTruthy();
    const refused = screen.getAllByTestId('logs-row')[2]!;
    expect(within(refused).getByText('Entrada recusada para carla@x.com')).toBeTruthy();
    expect(within(refused).getByText(l.refused.replace('{{status}}', '401'))).toBeTruthy();
    expect(screen.getByTestId('logs-count').textContent).toBe('3 registros');
  });

  it('sorts by user and by IP numerically, and searches', async () => {
    stubFetch(() => json(ROWS));
    await open({ kind: 'all' });
    await waitFor(() => expect(screen.getAllByTestId('logs-row')).toHaveLength(3));
    fireEvent.click(screen.getByTestId('logs-sort-ip'));
    expect(users()).toEqual(['carla@x.com', 'ana@x.com', 'bruno@x.com']);
    expect(screen.getByTestId('logs-sort-ip').getAttribute('aria-label')).toBe(l.sortedAsc.replace('{{column}}', l.columns.ip));
    fireEvent.click(screen.getByTestId('logs-sort-ip'));
    expect(users()).toEqual(['bruno@x.com', 'ana@x.com', 'carla@x.com']);
    fireEvent.click(screen.getByTestId('logs-sort-user'));
    expect(users()).toEqual(['ana@x.com', 'bruno@x.com', 'carla@x.com']);
    fireEvent.change(screen.getByLabelText(l.search), { target: { value: 'pixel' } });
    expect(users()).toEqual(['ana@x.com']);
    expect(screen.getByTestId('logs-count').textContent).toBe('1 de 3 registros');
    fireEvent.change(screen.getByLabelText(l.search), { target: { value: 'ninguém' } });
    expect(screen.getByTestId('logs-no-match').textContent).toBe(l.noMatch);
  });

  it("reads a device's or a user's own route, and says when nothing was logged", async () => {
    useLive.setState((s) => ({ devices: { ...s.devices, 7: { id: 7, name: 'Caminhão 7' } as never } }));
    const calls = stubFetch((call) => (call.url.startsWith('/api/users/3') && !call.url.includes('/logs') ? json({ id: 3, name: 'Ana' }) : json([])));
    await open({ kind: 'device', deviceId: 7 });
    expect(await screen.findByText(l.title.device.replace('{{name}}', 'Caminhão 7'))).toBeTruthy();
    expect((await screen.findByTestId('logs-empty')).textContent).toBe(l.empty);
    expect(new URL(logCalls(calls)[0]!.url, 'http://x').pathname).toBe('/api/devices/7/logs');
    cleanup();
    await open({ kind: 'user', userId: 3 });
    expect(await screen.findByText(l.title.user.replace('{{name}}', 'Ana'))).toBeTruthy();
    await waitFor(() => expect(logCalls(calls).map((c) => new URL(c.url, 'http://x').pathname)).toContain('/api/users/3/logs'));
  });

  it('shows a refusal as an error with a retry', async () => {
    let refuse = true;
    stubFetch(() => (refuse ? text('Administrator access required - only administrators may do this', 400) : json(ROWS.slice(0, 1))));
    await open({ kind: 'all' });
    const error = await screen.findByTestId('logs-error');
    expect(error.textContent).toContain(l.loadFailed);
    refuse = false;
    fireEvent.click(within(error).getByRole('button', { name: l.retry }));
    await waitFor(() => expect(screen.getAllByTestId('logs-row')).toHaveLength(1));
  });

  it('offers older entries when a page came full, and asks for the next one; draws only the rows on screen', async () => {
    // happy-dom lays nothing out: each row measures 64 px (the list is 400 px, fakeLayout).
    const saved = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) { return this.classList.contains('lg-row') ? 64 : 400; },
    });
    onTestFinished(() => {
      if (saved) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', saved);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>).offsetHeight;
    });
    const page = Array.from({ length: 500 }, (_, i) => row({ created_at: new Date(Date.UTC(2024, 4, 1, 12) - i * 60_000).toISOString() }));
    const calls = stubFetch((call) => json(new URL(call.url, 'http://x').searchParams.get('offset') === '0' ? page : ROWS));
    await open({ kind: 'all' });
    const more = await screen.findByTestId('logs-more');
    fireEvent.click(more);
    await waitFor(() => expect(screen.getByTestId('logs-count').textContent).toBe('503 registros'));
    // Only the rows on screen are drawn.
    expect(screen.getAllByTestId('logs-row').length).toBeLessThan(60);
    expect(logCalls(calls).map((c) => new URL(c.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '500']);
    expect(screen.queryByTestId('logs-more')).toBeNull();
  });
});
