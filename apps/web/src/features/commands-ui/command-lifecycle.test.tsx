// The device's recent commands against a stubbed server: nothing without commands; each
// status with its steps, reason and reply; cancel for a pending one (and the refusal when it
// was sent meanwhile); a new position of the device reads the list again while one is in flight.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import type { Position } from '@rastro/domain/entities';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { emptyLiveState, useLive } from '../../live/live-store.ts';
import { CommandLifecycle } from './command-lifecycle.tsx';

const pt = texts['pt-BR'];
const T0 = new Date(Date.now() - 60_000).toISOString();
const T1 = new Date(Date.now() - 50_000).toISOString();
const T2 = new Date(Date.now() - 40_000).toISOString();

const entry = (extra: Partial<CommandLogEntry>): CommandLogEntry => ({
  id: 1, deviceId: 7, userId: 1, type: 'engineStop', description: null, attributes: {}, status: 'queued', reason: 'offline',
  createdTime: T0, sentTime: null, acknowledgedTime: null, confirmedTime: null, failedTime: null, result: null, ...extra,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A server answering the list with `lists` in turn (the last one repeats) and DELETE with `onDelete`. */
function stubServer(lists: CommandLogEntry[][], onDelete: () => Response = () => json({})) {
  let call = 0;
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'DELETE') return onDelete();
    return json(lists[Math.min(call++, lists.length - 1)]);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderLog(canCancel = true) {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <CommandLifecycle deviceId={7} canCancel={canCancel} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeAll(() => initTestI18n());
beforeEach(() => useLive.setState(emptyLiveState()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('command lifecycle in the device detail', () => {
  it('shows nothing while the device has no commands', async () => {
    const fetch = stubServer([[]]);
    renderLog();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/commands/log?deviceId=7&limit=5');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('command-log')).toBeNull();
  });

  it('each status with its steps, why it waits and the reply', async () => {
    stubServer([[
      entry({ id: 4, reason: 'speed' }),
      entry({ id: 3, type: 'custom', attributes: { data: 'STATUS#' }, status: 'acknowledged', reason: null, sentTime: T1, acknowledgedTime: T2, result: 'GPS:OK' }),
      entry({ id: 2, type: 'engineResume', status: 'confirmed', reason: null, sentTime: T1, acknowledgedTime: T2, confirmedTime: T2, result: 'Restore OK' }),
      entry({ id: 1, status: 'failed', reason: 'timeout', sentTime: T1, failedTime: T2 }),
    ]]);
    renderLog();
    const section = await screen.findByTestId('command-log');
    expect(within(section).getByRole('heading', { name: pt.device.commandLog.title })).toBeTruthy();
    const latest = screen.getByTestId('command-state');
    expect(latest.dataset.state).toBe('queued');
    expect(latest.textContent).toContain(pt.device.actions.lock);
    expect(latest.textContent).toContain(pt.device.commandLog.status.queued);
    expect(latest.textContent).toContain(pt.device.commandLog.reason.speed);
    const [, custom, resume, failed] = within(section).getAllByRole('listitem');
    expect(custom!.textContent).toContain(pt.device.commandTypes.custom);
    expect(custom!.textContent).toContain(pt.device.commandLog.reply.replace('{{text}}', 'GPS:OK'));
    expect(custom!.querySelectorAll('time')).toHaveLength(3);
    expect(resume!.dataset.state).toBe('confirmed');
    expect(resume!.textContent).toContain(pt.device.actions.unlock);
    expect(resume!.textContent).toContain(pt.device.commandLog.steps.confirmed);
    expect(failed!.textContent).toContain(pt.device.commandLog.reason.timeout);
    // Only the pending one can be cancelled.
    expect(within(section).getAllByRole('button')).toHaveLength(1);
  });

  it('cancels a pending command; without the right, no button', async () => {
    const queued = entry({ id: 5 });
    const fetch = stubServer([[queued]], () => json({ ...queued, status: 'failed', reason: 'cancelled', failedTime: T2 }));
    renderLog();
    const button = await screen.findByRole('button', { name: pt.device.commandLog.cancelLabel.replace('{{command}}', pt.device.actions.lock) });
    fetch.mockImplementation(async (_url: string, init?: RequestInit) =>
      init?.method === 'DELETE' ? json({ ...queued, status: 'failed', reason: 'cancelled', failedTime: T2 }) : json([{ ...queued, status: 'failed', reason: 'cancelled', failedTime: T2 }]));
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('command-state').dataset.state).toBe('failed'));
    expect(fetch.mock.calls.some(([url, init]) => String(url) === '/api/commands/log/5' && init?.method === 'DELETE')).toBe(true);
    expect(screen.getByTestId('command-state').textContent).toContain(pt.device.commandLog.reason.cancelled);
    cleanup();
    stubServer([[queued]]);
    renderLog(false);
    await screen.findByTestId('command-log');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says so when the command was sent before the cancel arrived', async () => {
    const queued = entry({ id: 6 });
    stubServer([[queued], [{ ...queued, status: 'sent', reason: null, sentTime: T2 }]], () =>
      new Response('Command not pending - it was sent to the device already', { status: 400 }));
    renderLog();
    fireEvent.click(await screen.findByRole('button', { name: pt.device.commandLog.cancelLabel.replace('{{command}}', pt.device.actions.lock) }));
    expect((await screen.findByRole('alert')).textContent).toBe(pt.device.commandLog.cancelTooLate);
    await waitFor(() => expect(screen.getByTestId('command-state').dataset.state).toBe('sent'));
  });

  it('a new position of the device reads the list again while a command is in flight', async () => {
    const fetch = stubServer([
      [entry({ id: 7, status: 'sent', reason: null, sentTime: T1 })],
      [entry({ id: 7, status: 'acknowledged', reason: null, sentTime: T1, acknowledgedTime: T2, result: 'OK' })],
    ]);
    renderLog();
    await screen.findByTestId('command-state');
    expect(screen.getByTestId('command-state').textContent).toContain(pt.device.commandLog.awaitingReply);
    const calls = fetch.mock.calls.length;
    act(() => {
      useLive.setState({ positions: { 7: { id: 1, deviceId: 7, serverTime: new Date().toISOString() } as Position }, positionsVersion: 1 });
    });
    await waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThan(calls));
    await waitFor(() => expect(screen.getByTestId('command-state').dataset.state).toBe('acknowledged'));
    expect(screen.getByTestId('command-state').textContent).toContain(pt.device.commandLog.awaitingEffect);
  });
});
