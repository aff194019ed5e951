// The device log dialog against the live socket stand-in: the entry only for administrators
// and managers, the log wish on while open, the device's frames live, pause, clear and copy.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import type { Device, DeviceLogFrame } from '@rastro/domain/entities';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { bindDeviceLogs, deliverDeviceLogs } from '../../live/device-logs.ts';
import { DeviceLogEntry } from './device-log.tsx';

const pt = texts['pt-BR'];
const device = { id: 7, name: 'Van 7', uniqueId: '359710049095095' } as Device;
const frame = (data: string, extra: Partial<DeviceLogFrame> = {}): DeviceLogFrame => ({
  protocol: 'gt06', host: '10.0.0.9:40000', uniqueId: device.uniqueId, deviceId: 7, data, time: Date.UTC(2026, 0, 1, 10, 0, 0), ...extra,
});

let wishes: boolean[];

function renderEntry() {
  render(
    <MantineProvider>
      <DeviceLogEntry device={device} />
    </MantineProvider>,
  );
}

const setUser = (administrator: boolean, userLimit: number) =>
  useSession.setState({ user: { id: 1, name: 'Ana', administrator, userLimit, attributes: {} } as never });

beforeAll(() => initTestI18n());
beforeEach(() => {
  wishes = [];
  bindDeviceLogs((wanted) => wishes.push(wanted));
  useLive.setState({ socket: 'open' });
  setUser(true, 0);
});
afterEach(() => {
  cleanup();
  bindDeviceLogs(null);
  vi.unstubAllGlobals();
});

describe('device log', () => {
  it('is offered to administrators and managers, not to other users', () => {
    renderEntry();
    expect(screen.getByTestId('device-log-open')).toBeTruthy();
    cleanup();
    setUser(false, 3);
    renderEntry();
    expect(screen.getByTestId('device-log-open')).toBeTruthy();
    cleanup();
    setUser(false, 0);
    renderEntry();
    expect(screen.queryByTestId('device-log-open')).toBeNull();
  });

  it('asks for logs while open, shows this device\'s frames newest first, and stops asking when closed', async () => {
    renderEntry();
    expect(wishes).toEqual([]);
    fireEvent.click(screen.getByTestId('device-log-open'));
    await waitFor(() => expect(screen.getByTestId('device-log-empty').textContent).toBe(pt.device.log.empty));
    expect(wishes).toEqual([true]);
    act(() => deliverDeviceLogs([frame('78780d01'), frame('other', { deviceId: 8, uniqueId: '1' }), frame('*HQ,1,V1#', { protocol: 'h02', deviceId: null })]));
    const rows = screen.getAllByTestId('device-log-frame');
    expect(rows.map((r) => r.querySelector('code')!.textContent)).toEqual(['*HQ,1,V1#', '78780d01']);
    expect(rows[1]!.textContent).toContain('gt06');
    expect(screen.getByTestId('device-log-count').textContent).toBe('2 quadros');
    fireEvent.click(screen.getByRole('button', { name: pt.device.actions.close }));
    await waitFor(() => expect(wishes).toEqual([true, false]));
  });

  it('pause holds new frames until resumed; clear empties the list; copy puts one frame on the clipboard', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderEntry();
    fireEvent.click(screen.getByTestId('device-log-open'));
    await waitFor(() => screen.getByTestId('device-log-empty'));
    act(() => deliverDeviceLogs([frame('01')]));
    fireEvent.click(screen.getByRole('button', { name: pt.device.log.pause }));
    act(() => deliverDeviceLogs([frame('02'), frame('03')]));
    expect(screen.getAllByTestId('device-log-frame')).toHaveLength(1);
    expect(screen.getByTestId('device-log-count').textContent).toBe('Pausado: 2 quadros novos aguardando');
    fireEvent.click(screen.getByRole('button', { name: pt.device.log.resume }));
    await waitFor(() => expect(screen.getAllByTestId('device-log-frame').map((r) => r.querySelector('code')!.textContent)).toEqual(['03', '02', '01']));

    fireEvent.click(screen.getAllByRole('button', { name: pt.device.log.copy })[0]!);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('2026-01-01T10:00:00.000Z gt06 10.0.0.9:40000 03'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: pt.device.log.copied })).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: pt.device.log.clear }));
    expect(screen.queryAllByTestId('device-log-frame')).toHaveLength(0);
    expect(screen.getByTestId('device-log-empty')).toBeTruthy();
  });

  it('says when the live connection is down', async () => {
    useLive.setState({ socket: 'closed' });
    renderEntry();
    fireEvent.click(screen.getByTestId('device-log-open'));
    await waitFor(() => expect(screen.getByTestId('device-log-offline').textContent).toBe(pt.device.log.offline));
  });
});
