// The related-objects dialog against a stubbed server: linked objects checked, each toggle
// sent at once and put back with a message when refused, bulk select and clear of what the
// search shows, deleted devices left out, and "took too long" past the loading limit.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { RelatedPicker } from './related-picker.tsx';
import type { LinkedType } from './link-kinds.ts';
import { fakeLayout, json, newClient, Providers, stubFetch, text, type Call } from './test-kit.tsx';

const pt = texts['pt-BR'].collection;
const geofences = [
  { id: 1, name: 'Casa', attributes: {} },
  { id: 2, name: 'Trabalho', attributes: { city: 'Curitiba' } },
  { id: 3, name: 'Escola', attributes: {} },
];

/** A server holding `objects`, of which `linked` are linked to user 9; `refuse` answers the writes. */
function server(objects: object[], linked: number[], refuse?: (call: Call) => Response | null) {
  return stubFetch((call) => {
    if (call.url.startsWith('/api/permissions')) return refuse?.(call) ?? new Response(null, { status: 204 });
    if (call.url.includes('all=true')) return json(objects);
    return json(objects.filter((o) => linked.includes((o as { id: number }).id)));
  });
}

function open(type: LinkedType = 'geofences', limitMs?: number) {
  render(
    <Providers client={newClient()}>
      <RelatedPicker opened onClose={() => undefined} owner={{ key: 'userId', id: 9 }} type={type} title="Cercas de João" limitMs={limitMs} />
    </Providers>,
  );
}
const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

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

describe('related-objects dialog', () => {
  it('loads every object and checks the linked ones', async () => {
    const calls = server(geofences, [2]);
    open();
    expect(screen.getByRole('status').textContent).toContain(pt.loading);
    await screen.findByRole('checkbox', { name: 'Casa' });
    expect(calls.map((c) => c.url).sort()).toEqual(['/api/geofences?all=true', '/api/geofences?userId=9']);
    expect([box('Casa').checked, box('Trabalho').checked, box('Escola').checked]).toEqual([false, true, false]);
    expect(screen.getByText('1 de 3 vinculados')).toBeTruthy();
  });

  it('links and unlinks at once with POST / DELETE /api/permissions', async () => {
    const calls = server(geofences, [2]);
    open();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Casa' }));
    fireEvent.click(box('Trabalho'));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/permissions')).toHaveLength(2));
    expect(calls.filter((c) => c.url === '/api/permissions')).toEqual([
      { method: 'POST', url: '/api/permissions', body: { userId: 9, geofenceId: 1 } },
      { method: 'DELETE', url: '/api/permissions', body: { userId: 9, geofenceId: 2 } },
    ]);
    await waitFor(() => expect(box('Casa').disabled).toBe(false));
    expect([box('Casa').checked, box('Trabalho').checked]).toEqual([true, false]);
  });

  it('puts a refused checkbox back and says why', async () => {
    server(geofences, [2], () => text('Access denied - you cannot link this geofence', 403));
    open();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Casa' }));
    expect((await screen.findByTestId('link-failure')).textContent).toBe('Access denied - you cannot link this geofence');
    expect(box('Casa').checked).toBe(false);
    fireEvent.click(box('Trabalho'));
    await waitFor(() => expect(box('Trabalho').disabled).toBe(false));
    expect(box('Trabalho').checked).toBe(true);
  });

  it('selects and clears in bulk only what the search shows', async () => {
    const calls = server(geofences, [2]);
    open();
    await screen.findByRole('checkbox', { name: 'Casa' });
    fireEvent.click(screen.getByRole('button', { name: pt.selectAll }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/permissions/bulk')).toBe(true));
    expect(calls.at(-1)).toEqual({ method: 'POST', url: '/api/permissions/bulk', body: [{ userId: 9, geofenceId: 1 }, { userId: 9, geofenceId: 3 }] });
    await waitFor(() => expect(box('Escola').checked).toBe(true));
    fireEvent.change(screen.getByRole('searchbox', { name: pt.searchObjects }), { target: { value: 'curitiba' } });
    expect(screen.getAllByRole('checkbox').map((c) => (c as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['Trabalho']);
    fireEvent.click(screen.getByRole('button', { name: pt.clearAll }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ method: 'DELETE', url: '/api/permissions', body: { userId: 9, geofenceId: 2 } }));
  });

  it('puts a refused bulk change back', async () => {
    server(geofences, [], (c) => (c.url.endsWith('/bulk') ? text('Access denied - too many', 403) : null));
    open();
    await screen.findByRole('checkbox', { name: 'Casa' });
    fireEvent.click(screen.getByRole('button', { name: pt.selectAll }));
    expect((await screen.findByTestId('link-failure')).textContent).toBe('Access denied - too many');
    expect(screen.getAllByRole('checkbox').every((c) => !(c as HTMLInputElement).checked)).toBe(true);
  });

  it('leaves out deleted devices and says when there is nothing to link', async () => {
    server([{ id: 1, name: 'Carro', uniqueId: '123' }, { id: 2, name: 'Velho', uniqueId: 'deleted-2-99' }], []);
    open('devices');
    await screen.findByRole('checkbox', { name: 'Carro' });
    expect(screen.queryByRole('checkbox', { name: 'Velho' })).toBeNull();
    cleanup();
    server([], []);
    open('drivers');
    expect((await screen.findByText(pt.empty)).getAttribute('role')).toBe('status');
  });

  it('gives up with "took too long" past the loading limit, and tries again', async () => {
    let slow = true;
    // A slow server answers nothing; like a real fetch, the request rejects once aborted.
    stubFetch(({ url, signal }) => slow
      ? new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
      : json(url.includes('all=true') ? geofences : []));
    open('geofences', 50);
    expect((await screen.findByRole('alert')).textContent).toContain(pt.tooSlow);
    slow = false;
    fireEvent.click(screen.getByRole('button', { name: pt.retry }));
    expect(await screen.findByRole('checkbox', { name: 'Casa' })).toBeTruthy();
  });
});
