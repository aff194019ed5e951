// The server settings dialog against a stubbed server: the domain schema's problems under their
// fields (and the tab holding the first one shown), Plus-only options locked on a basic licence,
// the device limit only for the first administrator, the PUT body of a save and the session's
// server info re-read from the answer's headers, a refusal kept as a form message, and a restart
// waited for until another server instance answers.
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain/entities';
import { QR_DRIVER_KEYS } from '@rastro/domain/server-settings';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { loadTexts } from '../../i18n/texts.ts';
import { useSession } from '../../app/session-store.ts';
import { newClient, Providers, stubFetch, text, type Call } from '../../ui/collection/test-kit.tsx';
import ServerSettingsDialog from './server-settings-dialog.tsx';

const pt = texts['pt-BR'];
const s = pt.server;

const SERVER: Server = {
  id: 1, registration: false, readonly: false, deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false,
  map: null, bingKey: null, mapUrl: null, overlayUrl: null, poiLayer: null, announcement: null, latitude: -23.55, longitude: -46.63,
  zoom: 12, twelveHourFormat: false, forceSettings: false, coordinateFormat: null, version: '1.0.0', emailEnabled: false,
  textEnabled: false, geocoderEnabled: false, openIdEnabled: false, openIdForce: false, storageSpace: null, newServer: false,
  attributes: { 'tarkan.enableStops': 'true', 'tarkan.deviceAttributes': 'ignition', speedLimit: 80 },
};

const admin = (id: number) => ({ id, name: `Admin ${id}`, administrator: true, userLimit: -1, attributes: {} }) as unknown as User;

function signIn(id: number, plus = true) {
  useSession.setState({ user: admin(id), serverInfo: { server: SERVER, plus, allowedDevices: null } });
}

const answer = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', licensemode: 'plus', ...headers } });

interface Stub {
  stored: Server;
  instance: string;
  refuse?: string;
  restarts: number;
}

function serverStub(stub: Stub) {
  return stubFetch((call: Call) => {
    if (call.url === '/api/server' && call.method === 'GET') {
      if (stub.instance === 'down') throw new TypeError('connection refused');
      return answer(stub.stored, { devicelimit: '7', 'rastro-instance': stub.instance });
    }
    if (call.url === '/api/server' && call.method === 'PUT') {
      if (stub.refuse) return text(stub.refuse, 400);
      stub.stored = call.body as Server;
      return answer(stub.stored, { devicelimit: '7' });
    }
    if (call.url === '/api/server/restart' && call.method === 'POST') {
      stub.restarts++;
      const before = stub.instance;
      // The old instance goes away, then a new one answers.
      setTimeout(() => { stub.instance = 'down'; }, 0);
      setTimeout(() => { stub.instance = 'instance-2'; }, 30);
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json', 'rastro-instance': before } });
    }
    return text('unexpected', 500);
  });
}

async function open(onClose = vi.fn()) {
  await act(async () => {
    render(
      <Providers client={newClient()}>
        <Suspense fallback="…">
          <ServerSettingsDialog onClose={onClose} />
        </Suspense>
      </Providers>,
    );
  });
  await screen.findByRole('tab', { name: s.tabs.preferences });
  return onClose;
}

const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const save = () => fireEvent.click(screen.getByRole('button', { name: pt.collection.save }));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Mantine's switch label holds its description too: the name starts with the label. */
const switchOf = (label: string) => screen.getByRole('switch', { name: new RegExp(`^${escape(label)}`) }) as HTMLInputElement;
const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body as Server);

beforeAll(async () => {
  await initTestI18n('pt-BR');
  await loadTexts(['shell', 'server']);
}, 20_000);
beforeEach(() => signIn(1));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
vi.setConfig({ testTimeout: 20_000 });

describe('server settings dialog', () => {
  it('checks the form first: each problem under its field, the tab of the first one shown, nothing sent', async () => {
    const stub: Stub = { stored: SERVER, instance: 'instance-1', restarts: 0 };
    const calls = serverStub(stub);
    await open();
    fireEvent.change(screen.getByLabelText(s.preferences.latitude), { target: { value: '95' } });
    tab(s.tabs.qrDriver);
    fireEvent.click(switchOf(s.qr.lockWithoutDriver));
    tab(s.tabs.attributes);
    fireEvent.click(screen.getByRole('button', { name: s.attributes.add }));
    save();
    // Back on the preferences tab, where the first problem is.
    expect(await screen.findByText(pt.collection.issues.range.replace('{{min}}', '-90').replace('{{max}}', '90'))).toBeTruthy();
    // The other tabs with a problem say so.
    const flagged = (name: string) => s.tabs.hasProblems.replace('{{tab}}', name);
    expect(screen.getByRole('tab', { name: flagged(s.tabs.preferences) })).toBeTruthy();
    expect(screen.getByRole('tab', { name: s.tabs.options })).toBeTruthy();
    expect(screen.getByTestId('editor-failure').textContent).toBe(pt.collection.checkForm);
    tab(flagged(s.tabs.qrDriver));
    expect(screen.getByText(pt.collection.issues.required)).toBeTruthy();
    tab(flagged(s.tabs.attributes));
    expect(screen.getByText(s.attributes.problems.empty)).toBeTruthy();
    expect(puts(calls)).toEqual([]);
  });

  it('locks the Plus options on a basic licence, with the note', async () => {
    signIn(1, false);
    serverStub({ stored: SERVER, instance: 'instance-1', restarts: 0 });
    await open();
    tab(s.tabs.options);
    expect(switchOf(s.options.lazyDeletion.label).disabled).toBe(true);
    expect(switchOf(s.options.stops.label).disabled).toBe(true);
    expect(switchOf(s.options.lockUnlock.label).disabled).toBe(false);
    expect(switchOf(s.options.billing.label).disabled).toBe(false);
    expect(screen.getAllByText(new RegExp(escape(s.options.plusOnly))).length).toBeGreaterThan(0);
    tab(s.tabs.qrDriver);
    expect(switchOf(s.qr.unlockOnCheckIn).disabled).toBe(true);
  });

  it('lets only the first administrator set the server device limit', async () => {
    signIn(3);
    serverStub({ stored: SERVER, instance: 'instance-1', restarts: 0 });
    await open();
    tab(s.tabs.permissions);
    expect(screen.getByTestId('server-device-limit-owner').textContent).toBe(s.permissions.deviceLimitOwner);
    expect(screen.getByText(s.permissions.limited).closest('fieldset')!.disabled).toBe(true);
    cleanup();
    signIn(1);
    await open();
    tab(s.tabs.permissions);
    expect(screen.queryByTestId('server-device-limit-owner')).toBeNull();
    expect(screen.getByText(s.permissions.limited).closest('fieldset')!.disabled).toBe(false);
  });

  it('saves what was changed, keeps the rest as stored, and re-reads the licence headers into the session', async () => {
    const stub: Stub = { stored: SERVER, instance: 'instance-1', restarts: 0 };
    const calls = serverStub(stub);
    const onClose = await open();
    fireEvent.change(screen.getByLabelText(s.preferences.zoom), { target: { value: '9' } });
    tab(s.tabs.permissions);
    fireEvent.click(switchOf(s.permissions.sendCommands));
    fireEvent.click(screen.getByText(s.permissions.limited));
    fireEvent.change(screen.getByLabelText(s.permissions.deviceLimitCount), { target: { value: '250' } });
    tab(s.tabs.options);
    fireEvent.click(switchOf(s.options.lazyDeletion.label));
    tab(s.tabs.qrDriver);
    fireEvent.click(switchOf(s.qr.logoutOnIgnitionOff));
    fireEvent.change(screen.getByLabelText(s.qr.logoutAfterMinutes), { target: { value: '3' } });
    tab(s.tabs.attributes);
    fireEvent.change(screen.getByLabelText(s.attributes.valueOf.replace('{{key}}', 'speedLimit')), { target: { value: '90' } });
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [body] = puts(calls);
    expect(body).toMatchObject({ zoom: 9, limitCommands: true, latitude: -23.55 });
    expect(body!.attributes).toEqual({
      'tarkan.enableStops': 'true', 'tarkan.deviceAttributes': 'ignition', speedLimit: '90', 'tarkan.deviceLimit': 250,
      'tarkan.enableLazyDeletion': true, [QR_DRIVER_KEYS.logoutOnIgnitionOff]: true, [QR_DRIVER_KEYS.logoutAfterMinutes]: 3,
    });
    const info = useSession.getState().serverInfo!;
    expect(info.server.attributes['tarkan.deviceLimit']).toBe(250);
    expect(info.allowedDevices).toBe(7);
    expect(info.plus).toBe(true);
  });

  it("shows the server's refusal and keeps the dialog open", async () => {
    serverStub({ stored: SERVER, instance: 'instance-1', restarts: 0, refuse: 'Server device limit - only the first administrator may change it' });
    const onClose = await open();
    save();
    expect((await screen.findByTestId('editor-failure')).textContent).toBe('Server device limit - only the first administrator may change it');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('restarts after a confirmation that says it may take minutes, then says when the server is back', async () => {
    const stub: Stub = { stored: SERVER, instance: 'instance-1', restarts: 0 };
    serverStub(stub);
    await open();
    fireEvent.click(screen.getByRole('button', { name: s.restart.button }));
    const dialog = await screen.findByTestId('server-restart-dialog');
    expect(within(dialog).getByText(s.restart.body)).toBeTruthy();
    expect(stub.restarts).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: s.restart.confirm }));
    await waitFor(() => expect(screen.getByTestId('server-restart-dialog').dataset.phase).toBe('back'), { timeout: 10_000 });
    expect(screen.getByText(s.restart.back)).toBeTruthy();
    expect(stub.restarts).toBe(1);
  });
});
