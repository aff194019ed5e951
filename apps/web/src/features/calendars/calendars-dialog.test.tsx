// The calendars manager against a stubbed server: the list with each calendar's next
// occurrence, creating a weekly calendar (preview, the iCalendar sent), the schedule checks,
// a hand-written calendar kept untouched, deletion, and the buttons under their bits.
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Calendar, Server, User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS } from '@rastro/domain/permissions';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { loadTexts } from '../../i18n/texts.ts';
import { useSession } from '../../app/session-store.ts';
import { fakeLayout, json, newClient, Providers, stubFetch, text, type Call } from '../../ui/collection/test-kit.tsx';
import CalendarsDialog from './calendars-dialog.tsx';

const pt = texts['pt-BR'];
const c = pt.calendars;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

const me = { id: 3, name: 'Eu', administrator: true, readonly: false, attributes: { timezone: 'America/Sao_Paulo' } } as unknown as User;

const FUTURE = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID=America/Sao_Paulo:20990105T080000\r\nDTEND;TZID=America/Sao_Paulo:20990105T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const PAST = FUTURE.replace(/2099/g, '2001');
const HAND = 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Europe/Lisbon:20240101T080000\nDTEND;TZID=Europe/Lisbon:20240101T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2\nEND:VEVENT\nEND:VCALENDAR\n';
const CALENDARS: Calendar[] = [
  { id: 1, name: 'Feriado', data: b64(FUTURE), attributes: {} },
  { id: 2, name: 'Antigo', data: b64(PAST), attributes: {} },
  { id: 3, name: 'Quinzenal', data: b64(HAND), attributes: { note: 'x' } },
];

function signIn(user: User = me, serverAttributes: Record<string, unknown> = {}) {
  useSession.setState({ user, serverInfo: { server: { attributes: serverAttributes, readonly: false } as unknown as Server, plus: true, allowedDevices: null } });
}

function server() {
  return stubFetch((call: Call) => {
    if (call.method === 'GET' && call.url === '/api/calendars') return json(CALENDARS);
    if (call.method === 'POST' && call.url === '/api/calendars') return json({ ...(call.body as Calendar), id: 10 });
    if (call.method === 'PUT' && call.url.startsWith('/api/calendars/')) return json(call.body);
    if (call.method === 'DELETE' && call.url === '/api/calendars/2') return new Response(null, { status: 204 });
    return text('unexpected', 500);
  });
}

async function show() {
  await act(async () => {
    render(
      <Providers client={newClient()}>
        <Suspense fallback="…">
          <CalendarsDialog dialog={{ kind: 'calendars' }} onClose={vi.fn()} />
        </Suspense>
      </Providers>,
    );
  });
  await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
}

const row = (name: string) => screen.getAllByRole('option').find((o) => o.textContent?.includes(name))!;
const editor = () => screen.getByRole('dialog', { name: new RegExp(`${c.editor.create}|${c.editor.edit}`) });

async function pick(label: string, option: string) {
  fireEvent.click(within(editor()).getByLabelText(label, { selector: 'input' }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

let restoreLayout: () => void;
beforeAll(async () => {
  await initTestI18n('pt-BR');
  await loadTexts(['shell', 'calendars']);
  restoreLayout = fakeLayout();
}, 20_000);
afterAll(() => restoreLayout());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
vi.setConfig({ testTimeout: 30_000 });

describe('calendars dialog', () => {
  it('lists each calendar with its next occurrence, none for a past one, and says when rules are custom', async () => {
    signIn();
    server();
    await show();
    expect(row('Feriado').textContent).toContain('2099');
    expect(row('Antigo').textContent).toContain(c.noNext);
    expect(row('Quinzenal').textContent).toContain(c.custom);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: c.custom.slice(0, 8) } });
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining('Quinzenal')]));
  });

  it('creates a weekly calendar, previewing its next five occurrences, and sends its iCalendar', async () => {
    signIn();
    const calls = server();
    await show();
    fireEvent.click(screen.getByRole('button', { name: c.add }));
    fireEvent.change(within(editor()).getByLabelText(c.editor.name, { exact: false }), { target: { value: 'Expediente' } });
    fireEvent.change(screen.getByTestId('calendar-schedule-0-start'), { target: { value: '2030-01-07T08:00' } });
    fireEvent.change(screen.getByTestId('calendar-schedule-0-end'), { target: { value: '2030-01-07T18:00' } });
    await pick(c.editor.repeat, c.editor.repeats.weekly);
    // The start's weekday (Monday) is chosen; add Wednesday.
    fireEvent.click(within(editor()).getByRole('checkbox', { name: c.editor.days.WE }));
    const preview = screen.getByTestId('calendar-preview');
    await waitFor(() => expect(within(preview).getAllByRole('listitem')).toHaveLength(5));
    expect(within(preview).getAllByRole('listitem')[0]!.textContent).toContain('2030');
    fireEvent.click(within(editor()).getByRole('button', { name: pt.collection.save }));
    await waitFor(() => expect(calls.some((x) => x.method === 'POST')).toBe(true));
    const body = calls.find((x) => x.method === 'POST')!.body as Calendar;
    expect(body.name).toBe('Expediente');
    expect(unb64(body.data)).toContain('DTSTART;TZID=America/Sao_Paulo:20300107T080000\r\nDTEND;TZID=America/Sao_Paulo:20300107T180000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n');
  });

  it('shows each schedule problem under its field and sends nothing', async () => {
    signIn();
    const calls = server();
    await show();
    fireEvent.click(screen.getByRole('button', { name: c.add }));
    fireEvent.change(within(editor()).getByLabelText(c.editor.name, { exact: false }), { target: { value: 'X' } });
    fireEvent.change(screen.getByTestId('calendar-schedule-0-start'), { target: { value: '2030-01-07T08:00' } });
    fireEvent.change(screen.getByTestId('calendar-schedule-0-end'), { target: { value: '2030-01-07T07:00' } });
    expect(within(screen.getByTestId('calendar-preview')).getByText(c.editor.previewInvalid)).toBeTruthy();
    fireEvent.click(within(editor()).getByRole('button', { name: pt.collection.save }));
    expect(await within(editor()).findByText(c.errors.endBeforeStart)).toBeTruthy();
    expect(calls.filter((x) => x.method !== 'GET')).toEqual([]);
  });

  it('opens a hand-written calendar read-only for its schedules and saves its data untouched', async () => {
    signIn();
    const calls = server();
    await show();
    fireEvent.click(row('Quinzenal'));
    fireEvent.click(screen.getByRole('button', { name: c.edit }));
    expect(within(editor()).getByTestId('calendar-read-only').textContent).toContain(c.editor.readOnly);
    expect(within(editor()).queryByTestId('calendar-schedule')).toBeNull();
    fireEvent.change(within(editor()).getByLabelText(c.editor.name, { exact: false }), { target: { value: 'Quinzena' } });
    fireEvent.click(within(editor()).getByRole('button', { name: pt.collection.save }));
    await waitFor(() => expect(calls.some((x) => x.method === 'PUT')).toBe(true));
    expect(calls.find((x) => x.method === 'PUT')).toMatchObject({ url: '/api/calendars/3', body: { id: 3, name: 'Quinzena', data: b64(HAND), attributes: { note: 'x' } } });
  });

  it('deletes the selected calendar after confirming', async () => {
    signIn();
    const calls = server();
    await show();
    fireEvent.click(row('Antigo'));
    fireEvent.click(screen.getByRole('button', { name: c.delete }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: c.deleteYes }));
    expect(await screen.findByText(c.deleted.replace('{{name}}', 'Antigo'))).toBeTruthy();
    expect(calls.filter((x) => x.method === 'DELETE').map((x) => x.url)).toEqual(['/api/calendars/2']);
  });

  it('offers add, edit and delete only under their advanced-permission bits', async () => {
    const flags: boolean[] = [];
    flags[PERMISSION_BITS.calendars] = true;
    flags[PERMISSION_BITS.calendarsEdit] = true;
    signIn({ ...me, administrator: false, attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms(flags) } } as User, { 'tarkan.enableAdvancedPerms': true });
    server();
    await show();
    expect(screen.queryByRole('button', { name: c.add })).toBeNull();
    expect(screen.queryByRole('button', { name: c.delete })).toBeNull();
    expect(screen.getByRole('button', { name: c.edit })).toBeTruthy();
  });
});
