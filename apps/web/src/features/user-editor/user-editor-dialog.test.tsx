// The user editor against a stubbed server: the spec's messages under each field (and the tab
// holding the first one shown), new-user defaults, every tab's fields reaching the body, the
// advanced permission tree encoded and decoded through the form, superior administrators
// refused before anything is sent, what one may not change on oneself, the session user and
// language following a save of one's own account, and the server's refusal as a form message.
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain/entities';
import { decodeAdvancedPerms, encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import i18next from '../../i18n/translator.ts';
import { loadTexts } from '../../i18n/texts.ts';
import { useSession } from '../../app/session-store.ts';
import { json, newClient, Providers, stubFetch, text, type Call } from '../../ui/collection/test-kit.tsx';
import { UserEditorDialog } from './user-editor-dialog.tsx';

const pt = texts['pt-BR'];
const ue = pt.userEditor;

const user = (id: number, name: string, fields: Partial<User> = {}): User => ({
  id, name, login: null, email: `${name.toLowerCase()}@x.com`, phone: null, readonly: false, administrator: false, map: null, latitude: 0,
  longitude: 0, zoom: 0, twelveHourFormat: false, coordinateFormat: null, disabled: false, expirationTime: null, deviceLimit: -1,
  userLimit: 0, deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false, poiLayer: null, temporary: false,
  attributes: {}, ...fields,
});

const root = user(1, 'Root', { administrator: true, userLimit: -1 });
const me = user(3, 'Admin Três', { administrator: true, userLimit: -1, expirationTime: '2032-01-01T00:00:00.000Z' });

function signIn(who: User, serverAttributes: Record<string, unknown> = {}, plus = true) {
  useSession.setState({
    user: who,
    serverInfo: { server: { attributes: serverAttributes, readonly: false } as unknown as Server, plus, allowedDevices: null },
  });
}

/** The server: users by id, time zones, saving (echoes the body with an id), tokens, test notifications. */
function server(users: User[], options: { refuse?: string } = {}) {
  return stubFetch((call: Call) => {
    const byId = /^\/api\/users\/(\d+)$/.exec(call.url);
    if (call.method === 'GET' && byId) return json(users.find((u) => u.id === Number(byId[1])) ?? {}, users.some((u) => u.id === Number(byId[1])) ? 200 : 404);
    if (call.url === '/api/server/timezones') return json(['America/Sao_Paulo', 'Europe/Lisbon', 'UTC']);
    if (call.method === 'POST' && call.url === '/api/users') return options.refuse ? text(options.refuse, 400) : json({ ...(call.body as object), id: 50 });
    if (call.method === 'PUT' && byId) return options.refuse ? text(options.refuse, 400) : json({ ...(call.body as object), password: null });
    if (call.url === '/api/session/token') return text('TOKEN-123', 200);
    if (call.url === '/api/notifications/test') return new Response(null, { status: 204 });
    return text('unexpected', 500);
  });
}

/** Renders the dialog; awaited inside act so a suspended render (its texts, useTexts) is retried. */
async function open(userId: number | null, onClose = vi.fn()) {
  await act(async () => {
    render(
      <Providers client={newClient()}>
        <Suspense fallback="…">
          <UserEditorDialog userId={userId} onClose={onClose} />
        </Suspense>
      </Providers>,
    );
  });
  return onClose;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const save = () => fireEvent.click(screen.getByRole('button', { name: pt.collection.save }));
const sent = (calls: Call[], method: string) => calls.filter((c) => c.method === method && c.url.startsWith('/api/users')).map((c) => c.body as User);
const switchOf = (label: string, scope: HTMLElement = document.body) => within(scope).getByRole('switch', { name: label }) as HTMLInputElement;

beforeAll(async () => {
  await initTestI18n('pt-BR');
  // The dialog asks for its texts (useTexts); fetched once here so no test waits for the files.
  await loadTexts(['shell', 'userEditor']);
}, 20_000);
beforeEach(() => signIn(me));
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('pt-BR');
});

// Mantine renders every tab's switches; a few tests walk all six tabs.
vi.setConfig({ testTimeout: 20_000 });

describe('user editor: validation', () => {
  it('shows the spec\'s message under each account field, then the short-value ones', async () => {
    const calls = server([me]);
    await open(null);
    expect(await screen.findByText(ue.title.create)).toBeTruthy();
    save();
    expect(await screen.findByText(pt.forms.nameRequired)).toBeTruthy();
    expect(screen.getByText(pt.forms.emailRequired)).toBeTruthy();
    expect(screen.getByText(pt.forms.passwordRequired)).toBeTruthy();
    expect(screen.getByTestId('editor-failure').textContent).toBe(pt.collection.checkForm);
    type(ue.fields.name, 'Al');
    type(ue.fields.email, 'a@b');
    type(ue.fields.password, 'abc');
    save();
    expect(await screen.findByText(pt.forms.nameShort.replace('{{min}}', '3'))).toBeTruthy();
    expect(screen.getByText(pt.forms.emailShort.replace('{{min}}', '4'))).toBeTruthy();
    expect(screen.getByText(pt.forms.passwordShort.replace('{{min}}', '4'))).toBeTruthy();
    expect(sent(calls, 'POST')).toEqual([]);
  });

  it('opens the tab holding the first problem, with the field\'s own message', async () => {
    server([me]);
    await open(null);
    await screen.findByText(ue.title.create);
    type(ue.fields.name, 'Ana Souza');
    type(ue.fields.email, 'ana@example.com');
    type(ue.fields.password, 'secret');
    tab(ue.tabs.billing);
    type(ue.billing.taxId, '123');
    tab(ue.tabs.preferences);
    type(ue.fields.latitude, '95');
    tab(ue.tabs.account);
    save();
    // Preferences come before billing in the form: that tab opens.
    expect(await screen.findByText('Um número de -90 a 90.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: ue.tabs.preferences }).getAttribute('aria-selected')).toBe('true');
    type(ue.fields.latitude, '-23.5');
    save();
    expect(await screen.findByText(ue.errors.taxId)).toBeTruthy();
    expect(screen.getByRole('tab', { name: ue.tabs.billing }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('user editor: a new user', () => {
  it('starts with the reference\'s defaults and sends every tab\'s fields', async () => {
    signIn(me, { 'tarkan.lang': 'es' });
    const calls = server([me]);
    const onClose = await open(null);
    await screen.findByText(ue.title.create);
    type(ue.fields.name, 'Ana Souza');
    type(ue.fields.email, 'ana@example.com');
    type(ue.fields.password, 'secret');
    type(ue.fields.phone, '+55 11 5555');
    tab(ue.tabs.address);
    type(ue.fields.city, 'Recife');
    type(ue.fields.zip, '50000-000');
    tab(ue.tabs.communication);
    type(ue.fields.whatsapp, '+5581999990000');
    type(ue.fields.telegramChatId, '12345');
    tab(ue.tabs.billing);
    fireEvent.click(switchOf(ue.billing.enabled));
    type(ue.billing.price, '49,90');
    type(ue.billing.dueDay, '10');
    tab(ue.tabs.permissions);
    // Defaults: no devices of its own, device-readonly, commands allowed.
    expect(input(ue.fields.deviceLimit).value).toBe('0');
    expect(input(ue.fields.userLimit).value).toBe('0');
    expect(switchOf(ue.fields.deviceReadonly).checked).toBe(true);
    expect(switchOf(ue.fields.limitCommands).checked).toBe(false);
    fireEvent.click(switchOf(ue.reseller.reseller));
    type(ue.reseller.domain, 'Track.Example.com');
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const [body] = sent(calls, 'POST');
    expect(body).toMatchObject({
      name: 'Ana Souza', email: 'ana@example.com', password: 'secret', phone: '+55 11 5555', deviceLimit: 0, userLimit: 0,
      deviceReadonly: true, limitCommands: false, administrator: false, expirationTime: '2032-01-01T00:00:00.000Z',
    });
    expect(body!.id).toBeUndefined();
    expect(body!.attributes).toMatchObject({
      'tarkan.lang': 'es', 'tarkan.cidade': 'Recife', 'tarkan.cep': '50000-000', 'tarkan.whatsapp': '+5581999990000', telegramChatId: '12345',
      'tarkan.enableBilling': true, 'tarkan.billingPrice': 4990, 'tarkan.billingDate': 10, 'tarkan.reseller': true,
      'tarkan.domainReseller': 'track.example.com',
    });
  });

  it('shows the server\'s refusal as the form message and keeps what was typed', async () => {
    server([me], { refuse: 'Manager user limit reached - you cannot create more users' });
    const onClose = await open(null);
    await screen.findByText(ue.title.create);
    type(ue.fields.name, 'Ana Souza');
    type(ue.fields.email, 'ana@example.com');
    type(ue.fields.password, 'secret');
    save();
    expect((await screen.findByRole('alert')).textContent).toBe('Manager user limit reached - you cannot create more users');
    expect(input(ue.fields.name).value).toBe('Ana Souza');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('user editor: advanced permissions', () => {
  const stored = Array.from({ length: 128 }, (_, i) => ([B.devices, B.devicesLock, B.users] as number[]).includes(i));
  const joao = user(7, 'João', { attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms(stored), city: 'Recife' }, readonly: true });

  it('decodes the stored flags into the switches and encodes the switches on save (plus, server switch on)', async () => {
    signIn(me, { 'tarkan.enableAdvancedPerms': true });
    const calls = server([me, joao]);
    await open(7);
    await screen.findByText(ue.title.edit.replace('{{name}}', 'João'));
    tab(ue.tabs.permissions);
    const tree = screen.getByTestId('advanced-perms');
    expect(switchOf(ue.advanced.areas.devices, tree).checked).toBe(true);
    expect(switchOf(ue.advanced.areas.reports, tree).checked).toBe(false);
    const devices = within(tree).getByRole('group', { name: ue.advanced.areas.devices });
    expect(switchOf(ue.advanced.actions.lock, devices).checked).toBe(true);
    expect(switchOf(ue.advanced.actions.unlock, devices).checked).toBe(false);
    // Readonly and its companions are replaced by the flags.
    expect(screen.queryByRole('switch', { name: ue.fields.readonly })).toBeNull();

    fireEvent.click(switchOf(ue.advanced.areas.reports, tree));
    const reports = within(tree).getByRole('group', { name: ue.advanced.areas.reports });
    fireEvent.click(switchOf(ue.advanced.actions.route, reports));
    fireEvent.click(switchOf(ue.advanced.actions.unlock, devices));
    // Users off takes its actions with it; self-edit is offered when editing someone else.
    fireEvent.click(switchOf(ue.advanced.areas.users, tree));
    fireEvent.click(switchOf(ue.advanced.self, tree));
    save();
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    const [body] = sent(calls, 'PUT');
    const expected = Array.from({ length: 128 }, (_, i) => ([B.selfEdit, B.devices, B.devicesLock, B.devicesUnlock, B.reports, B.reportsRoute] as number[]).includes(i));
    expect(body!.attributes['tarkan.advancedPerms']).toBe(encodeAdvancedPerms(expected));
    expect(decodeAdvancedPerms(body!.attributes['tarkan.advancedPerms'])).toEqual(expected);
    expect(body).toMatchObject({ readonly: false, deviceReadonly: false, limitCommands: false });
    expect(body!.attributes.city).toBe('Recife');
  });

  it('is not offered without the plus licence or the server switch, and never for an administrator', async () => {
    signIn(me, { 'tarkan.enableAdvancedPerms': true }, false);
    const calls = server([me, joao]);
    await open(7);
    await screen.findByText(ue.title.edit.replace('{{name}}', 'João'));
    tab(ue.tabs.permissions);
    expect(screen.queryByTestId('advanced-perms')).toBeNull();
    expect(switchOf(ue.fields.readonly).checked).toBe(true);
    save();
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    expect(sent(calls, 'PUT')[0]!.attributes['tarkan.advancedPerms']).toBe(joao.attributes['tarkan.advancedPerms']);
    cleanup();
    signIn(me, { 'tarkan.enableAdvancedPerms': true });
    server([me, joao]);
    await open(7);
    await screen.findByText(ue.title.edit.replace('{{name}}', 'João'));
    tab(ue.tabs.permissions);
    expect(screen.getByTestId('advanced-perms')).toBeTruthy();
    fireEvent.click(switchOf(ue.fields.administrator));
    expect(screen.queryByTestId('advanced-perms')).toBeNull();
    expect(screen.getByText(ue.advanced.adminHasAll)).toBeTruthy();
  });
});

describe('user editor: hierarchy rules', () => {
  it('a superior administrator opens read-only and saving is refused before anything is sent', async () => {
    const calls = server([me, root]);
    await open(1);
    await screen.findByText(ue.title.edit.replace('{{name}}', 'Root'));
    expect(screen.getByRole('alert').textContent).toBe(ue.errors.isSuperior);
    expect(input(ue.fields.name).disabled).toBe(true);
    expect((screen.getByRole('button', { name: pt.collection.save }) as HTMLButtonElement).disabled).toBe(true);
    tab(ue.tabs.permissions);
    expect(switchOf(ue.fields.administrator).disabled).toBe(true);
    expect(switchOf(ue.fields.disabled).disabled).toBe(true);
    tab(ue.tabs.address);
    expect(input(ue.fields.city).disabled).toBe(true);
    fireEvent.submit(screen.getByRole('button', { name: pt.collection.save }).closest('form')!);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent(calls, 'PUT')).toEqual([]);
  });

  it('on oneself a manager changes its details but not its privileges, may test notifications, and the session follows', async () => {
    const manager = user(20, 'Gerente', { userLimit: 5, deviceLimit: 10, attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true } });
    signIn(manager);
    const calls = server([manager]);
    const onClose = await open(20);
    await screen.findByText(ue.title.account);
    expect(input(ue.fields.name).disabled).toBe(false);
    tab(ue.tabs.permissions);
    for (const name of [ue.fields.administrator, ue.fields.disabled, ue.fields.readonly, ue.reseller.reseller]) expect(switchOf(name).disabled).toBe(true);
    expect(input(ue.fields.deviceLimit).disabled).toBe(true);
    expect(input(ue.fields.expirationTime).disabled).toBe(true);
    // No billing tab for a non-administrator.
    expect(screen.queryByRole('tab', { name: ue.tabs.billing })).toBeNull();
    // A token for oneself.
    fireEvent.click(screen.getByRole('button', { name: ue.fields.generateToken }));
    await waitFor(() => expect((screen.getByTestId('user-token') as HTMLInputElement).value).toBe('TOKEN-123'));
    fireEvent.click(screen.getByTestId('test-notification'));
    await waitFor(() => expect(screen.getByTestId('test-notification-result').textContent).toBe(ue.testSent));

    tab(ue.tabs.account);
    type(ue.fields.name, 'Gerente Geral');
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const [body] = sent(calls, 'PUT');
    expect(body).toMatchObject({ name: 'Gerente Geral', userLimit: 5, deviceLimit: 10, administrator: false });
    expect(body!.attributes).toEqual({ 'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.mapPref.clustered': true });
    expect(useSession.getState().user?.name).toBe('Gerente Geral');
  });

  it('without the self-edit bit one\'s own account details are read-only', async () => {
    const limited = user(21, 'Limitado', { attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms([]) } });
    signIn(limited, { 'tarkan.enableAdvancedPerms': true });
    server([limited]);
    await open(21);
    await screen.findByText(ue.title.account);
    expect(input(ue.fields.name).disabled).toBe(true);
    expect(input(ue.fields.phone).disabled).toBe(true);
    tab(ue.tabs.permissions);
    expect(switchOf(ue.advanced.areas.devices).disabled).toBe(true);
    expect(screen.queryByRole('switch', { name: ue.advanced.self })).toBeNull();
  });

  it('a manager may not edit an administrator at all', async () => {
    const manager = user(20, 'Gerente', { userLimit: 5 });
    signIn(manager);
    server([manager, root]);
    await open(1);
    await screen.findByText(ue.title.edit.replace('{{name}}', 'Root'));
    expect(screen.getByRole('alert').textContent).toBe(ue.errors.adminOnly);
  });
});

describe('user editor: one\'s own language', () => {
  it('switches the interface at once, goes back on cancel, and stays after saving', async () => {
    const calls = server([me]);
    const onClose = await open(3);
    await screen.findByText(ue.title.account);
    tab(ue.tabs.preferences);
    fireEvent.click(screen.getAllByLabelText(ue.fields.language)[0]!);
    const english = await screen.findByRole('option', { name: 'English' });
    // The switch re-asks for the dialog's texts in English (a suspended render, retried inside act).
    await act(async () => fireEvent.click(english));
    await waitFor(() => expect(i18next.language).toBe('en'));
    expect(await screen.findByRole('tab', { name: texts.en.userEditor.tabs.preferences })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: texts.en.collection.cancel })));
    expect(onClose).toHaveBeenCalledWith(false);
    await waitFor(() => expect(i18next.language).toBe('pt-BR'));

    cleanup();
    await open(3);
    await screen.findByText(ue.title.account);
    tab(ue.tabs.preferences);
    fireEvent.click(screen.getAllByLabelText(ue.fields.language)[0]!);
    const spanish = await screen.findByRole('option', { name: 'Español' });
    await act(async () => fireEvent.click(spanish));
    await waitFor(() => expect(i18next.language).toBe('es'));
    fireEvent.click(screen.getByRole('button', { name: texts.es.collection.save }));
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    expect(sent(calls, 'PUT')[0]!.attributes['tarkan.lang']).toBe('es');
    await waitFor(() => expect(useSession.getState().user?.attributes['tarkan.lang']).toBe('es'));
    expect(i18next.language).toBe('es');
  });
});
