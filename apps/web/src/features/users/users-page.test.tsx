// The users manager against a stubbed server: the list (share visitors left out) with each
// user's device count, the bar acting on the selected user, the spec's delete refusals before
// anything is sent, deleting with confirmation, the linking shortcuts under their bits, and the
// related-objects dialog they open.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { fakeLayout, json, newClient, Providers, stubFetch, text, type Call } from '../../ui/collection/test-kit.tsx';
import { Component as UsersPage } from './users-page.tsx';

const pt = texts['pt-BR'];

const user = (id: number, name: string, fields: Partial<User> = {}): User => ({
  id, name, login: null, email: `${name.toLowerCase()}@x.com`, phone: null, readonly: false, administrator: false, map: null, latitude: 0,
  longitude: 0, zoom: 0, twelveHourFormat: false, coordinateFormat: null, disabled: false, expirationTime: null, deviceLimit: -1,
  userLimit: 0, deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false, poiLayer: null, temporary: false,
  attributes: {}, ...fields,
});

const root = user(1, 'Root', { administrator: true, userLimit: -1 });
const me = user(3, 'Eu', { administrator: true, userLimit: -1 });
const joao = user(7, 'João', { expirationTime: '2031-05-04T12:00:00Z', attributes: { city: 'Recife' } });
const bia = user(9, 'Bia', { disabled: true });
const visitor = user(11, 'Visitante', { attributes: { isShared: true } });
const everyone = [joao, me, root, bia, visitor];

function signIn(who: User, serverAttributes: Record<string, unknown> = {}) {
  useSession.setState({
    user: who,
    serverInfo: { server: { attributes: serverAttributes, readonly: false } as unknown as Server, plus: true, allowedDevices: null },
  });
}

/** The server: the users list, the device counts (or a 404 like a Traccar server), links, deletes. */
function server(options: { counts?: Record<string, number> | null; refuseDelete?: string } = {}) {
  const counts = options.counts === undefined ? { 7: 2, 3: 5 } : options.counts;
  return stubFetch((call: Call) => {
    if (call.url === '/api/users') return json(everyone);
    if (call.url === '/tarkan/users/device-counts') return counts ? json(counts) : text('Not found', 404);
    if (call.method === 'DELETE' && call.url.startsWith('/api/users/')) return options.refuseDelete ? text(options.refuseDelete, 400) : new Response(null, { status: 204 });
    if (call.url.startsWith('/api/devices')) return json(call.url.includes('all=true') ? [{ id: 40, name: 'Van', uniqueId: 'v1' }] : []);
    return text('unexpected', 500);
  });
}

function show() {
  render(
    <Providers client={newClient()}>
      <UsersPage />
    </Providers>,
  );
}
const rows = () => screen.getAllByRole('option');
const rowText = () => rows().map((r) => [...r.children].map((c) => c.textContent));

let restoreLayout: () => void;
beforeAll(async () => {
  await initTestI18n('pt-BR');
  restoreLayout = fakeLayout();
});
afterAll(() => restoreLayout());
beforeEach(() => signIn(me));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('users manager', () => {
  it('lists every managed account but share visitors, by id, with its device count', async () => {
    server();
    show();
    await screen.findByText('João');
    // id, name, e-mail, admin, disabled, expiry, devices.
    expect(rowText().map((r) => [r[0], r[1], r[3], r[4], r[6]])).toEqual([
      ['1', 'Root', pt.collection.yes, pt.collection.no, '0'],
      ['3', 'Eu', pt.collection.yes, pt.collection.no, '5'],
      ['7', 'João', pt.collection.no, pt.collection.no, '2'],
      ['9', 'Bia', pt.collection.no, pt.collection.yes, '0'],
    ]);
    expect(rowText()[2]![5]).toBe(new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' }).format(Date.UTC(2031, 4, 4, 12)));
    // Search reaches attributes; the devices column sorts by count.
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'recife' } });
    expect(rowText().map((r) => r[1])).toEqual(['João']);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: `Ordenar por ${pt.users.columns.devices}` }));
    fireEvent.click(screen.getByRole('button', { name: `${pt.users.columns.devices}, ordem crescente` }));
    expect(rowText().map((r) => r[1])).toEqual(['Eu', 'João', 'Root', 'Bia']);
  });

  it('shows a dash for the counts when the server has no such endpoint', async () => {
    server({ counts: null });
    show();
    await screen.findByText('João');
    await waitFor(() => expect(rowText().every((r) => r[6] === '—')).toBe(true));
  });

  it('acts on the selected user only, and refuses deleting oneself or a superior administrator', async () => {
    const calls = server();
    show();
    await screen.findByText('João');
    const bar = screen.getByRole('toolbar', { name: pt.users.toolbar });
    expect(bar.textContent).toContain(pt.users.selectHint);
    expect((within(bar).getByRole('button', { name: pt.users.delete }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByText('Eu'));
    expect(bar.textContent).toContain('Selecionado: Eu');
    fireEvent.click(within(bar).getByRole('button', { name: pt.users.delete }));
    expect(screen.getByTestId('users-notice').textContent).toContain(pt.users.refusals.self);

    fireEvent.click(screen.getByText('Root'));
    fireEvent.click(within(bar).getByRole('button', { name: pt.users.delete }));
    expect(screen.getByTestId('users-notice').textContent).toContain(pt.users.refusals.superior);
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });

  it('deletes after confirmation, and shows the server\'s refusal', async () => {
    const calls = server();
    show();
    fireEvent.click(await screen.findByText('João'));
    fireEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: pt.users.delete }));
    const confirm = await screen.findByRole('dialog', { name: pt.users.confirmDelete.title });
    expect(confirm.textContent).toContain('Excluir João?');
    fireEvent.click(within(confirm).getByRole('button', { name: pt.users.confirmDelete.confirm }));
    await waitFor(() => expect(screen.getByTestId('users-notice').textContent).toContain('João foi excluído.'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/users/7']);
    cleanup();

    server({ refuseDelete: 'User access denied - you cannot manage this user' });
    show();
    fireEvent.click(await screen.findByText('Bia'));
    fireEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: pt.users.delete }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: pt.users.confirmDelete.confirm }));
    await waitFor(() => expect(screen.getByTestId('users-notice').textContent).toContain('User access denied - you cannot manage this user'));
  });

  it('offers the shortcuts the bits allow and opens the related-objects dialog on the user', async () => {
    const flags: boolean[] = [];
    for (const bit of [B.users, B.usersEdit, B.devices, B.drivers]) flags[bit] = true;
    signIn(user(4, 'Revenda', { userLimit: 10, attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms(flags) } }), { 'tarkan.enableAdvancedPerms': true });
    const calls = server();
    show();
    fireEvent.click(await screen.findByText('João'));
    const bar = screen.getByRole('toolbar');
    // Neither delete (19) nor logs (administrators) for this manager.
    expect(within(bar).queryByRole('button', { name: pt.users.delete })).toBeNull();
    expect(within(bar).queryByRole('button', { name: pt.users.logs })).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Vínculos de João' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([pt.users.linkTypes.devices, pt.users.linkTypes.drivers, pt.users.linkTypes.users]);
    fireEvent.click(items[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Dispositivos de João' });
    await within(dialog).findByRole('checkbox', { name: 'Van' });
    expect(calls.map((c) => c.url)).toContain('/api/devices?userId=7');
  });

  it('says so to someone who manages no users', async () => {
    signIn(user(8, 'Cliente'));
    server();
    show();
    expect(screen.getByRole('alert').textContent).toBe(pt.users.notAllowed);
  });
});
