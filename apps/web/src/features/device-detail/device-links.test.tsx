// The device's links menu: the types its areas allow, and the related-objects dialog with the
// device as owner.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { fakeLayout, json, newClient, Providers, stubFetch } from '../../ui/collection/test-kit.tsx';
import { DeviceLinks } from './device-links.tsx';

const pt = texts['pt-BR'].users;

function signIn(bits: number[] | null) {
  const flags: boolean[] = [];
  for (const bit of bits ?? []) flags[bit] = true;
  useSession.setState({
    user: { id: 4, name: 'Ana', administrator: false, attributes: bits ? { 'tarkan.advancedPerms': encodeAdvancedPerms(flags) } : {} } as unknown as User,
    serverInfo: { server: { attributes: { 'tarkan.enableAdvancedPerms': true } } as unknown as Server, plus: true, allowedDevices: null },
  });
}

/** Rendered inside an awaited act: the menu suspends until its texts are in (useTexts). */
async function show() {
  await act(async () => {
    render(
      <Providers client={newClient()}>
        <DeviceLinks device={{ id: 5, name: 'Van' }} />
      </Providers>,
    );
  });
}

let restoreLayout: () => void;
beforeAll(async () => {
  await initTestI18n('pt-BR');
  restoreLayout = fakeLayout();
});
afterAll(() => restoreLayout());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('device links menu', () => {
  it('offers every type to a user without advanced flags', async () => {
    signIn(null);
    stubFetch(() => json([]));
    await show();
    fireEvent.click(await screen.findByRole('button', { name: pt.links }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(
      [pt.linkTypes.geofences, pt.linkTypes.notifications, pt.linkTypes.drivers, pt.linkTypes.attributes, pt.linkTypes.commands, pt.linkTypes.maintenance],
    );
  });

  it('offers the types whose areas are on, and links them to the device', async () => {
    signIn([B.devices, B.devicesEdit, B.geofences, B.drivers]);
    const calls = stubFetch((call) => json(call.url.includes('all=true') ? [{ id: 1, name: 'Pátio' }] : []));
    await show();
    fireEvent.click(await screen.findByRole('button', { name: pt.links }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([pt.linkTypes.geofences, pt.linkTypes.drivers]);
    fireEvent.click(items[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Cercas virtuais de Van' });
    await within(dialog).findByRole('checkbox', { name: 'Pátio' });
    expect(calls.map((c) => c.url).sort()).toEqual(['/api/geofences?all=true', '/api/geofences?deviceId=5']);
  });

  it('shows nothing when no area of these types is on', async () => {
    signIn([B.devices, B.devicesEdit]);
    stubFetch(() => json([]));
    await show();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
