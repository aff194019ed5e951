// The collection hook against a stubbed server: its states, its writes (each followed by a
// fresh read, whatever the outcome) and the reads the socket causes.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyLiveState, setSocketStatus, useLive } from '../../live/live-store.ts';
import { json, newClient, Providers, stubFetch, text } from './test-kit.tsx';
import { SOCKET_SETTLE_MS, useCollection, type Entity } from './use-collection.ts';

interface Group extends Entity {
  name: string;
}

function renderCollection(resource = 'groups') {
  const client = newClient();
  return renderHook(() => useCollection<Group>(resource), { wrapper: ({ children }) => <Providers client={client}>{children}</Providers> });
}

beforeEach(() => useLive.setState(emptyLiveState()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useCollection', () => {
  it('is loading, then ready with the server list', async () => {
    let answer: (r: Response) => void = () => undefined;
    const calls = stubFetch(() => new Promise((r) => { answer = r; }));
    const { result } = renderCollection();
    expect(result.current.state).toBe('loading');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/groups' });
    answer(json([{ id: 1, name: 'A' }]));
    await waitFor(() => expect(result.current.state).toBe('ready'));
    expect(result.current.items).toEqual([{ id: 1, name: 'A' }]);
  });

  it('is empty for an empty list and an error when the server fails', async () => {
    stubFetch(() => json([]));
    const empty = renderCollection();
    await waitFor(() => expect(empty.result.current.state).toBe('empty'));
    stubFetch(() => text('Server error', 500));
    const failed = renderCollection('drivers');
    await waitFor(() => expect(failed.result.current.state).toBe('error'));
    expect(failed.result.current.error).toMatchObject({ status: 500 });
  });

  it('keeps the last list when a re-read fails, with the error beside it', async () => {
    let fail = false;
    stubFetch(() => (fail ? text('Server error', 500) : json([{ id: 1, name: 'A' }])));
    const { result } = renderCollection();
    await waitFor(() => expect(result.current.state).toBe('ready'));
    fail = true;
    act(() => result.current.retry());
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 500 }));
    expect(result.current.state).toBe('ready');
    expect(result.current.items).toEqual([{ id: 1, name: 'A' }]);
  });

  it('creates with POST (no id), updates with PUT, deletes, and reads again after each', async () => {
    let list: Group[] = [];
    const calls = stubFetch(({ method, body }) => {
      if (method === 'POST') return json({ ...(body as Group), id: 5 });
      if (method === 'PUT') return json(body);
      if (method === 'DELETE') return new Response(null, { status: 204 });
      return json(list);
    });
    const { result } = renderCollection();
    await waitFor(() => expect(result.current.state).toBe('empty'));
    list = [{ id: 5, name: 'New' }];
    await act(() => result.current.save({ id: -1, name: 'New' }));
    expect(calls[1]).toEqual({ method: 'POST', url: '/api/groups', body: { name: 'New' } });
    await waitFor(() => expect(result.current.items).toEqual(list));
    await act(() => result.current.save({ id: 5, name: 'Renamed' }));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/groups/5', body: { id: 5, name: 'Renamed' } });
    list = [];
    await act(() => result.current.remove(5));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/groups/5');
    await waitFor(() => expect(result.current.state).toBe('empty'));
  });

  it('reads again after a refused write too (the list must show what the server holds)', async () => {
    const calls = stubFetch(({ method }) => (method === 'PUT' ? text('Access denied - not yours', 403) : json([{ id: 1, name: 'A' }])));
    const { result } = renderCollection();
    await waitFor(() => expect(result.current.state).toBe('ready'));
    await act(() => expect(result.current.save({ id: 1, name: 'B' })).rejects.toMatchObject({ status: 403 }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it('devices follow the socket: a {devices} push reads the list again, once per burst', async () => {
    const calls = stubFetch(() => json([]));
    const { result } = renderCollection('devices');
    await waitFor(() => expect(result.current.state).toBe('empty'));
    vi.useFakeTimers();
    act(() => {
      useLive.setState({ devices: { 1: { id: 1 } as never } });
      useLive.setState({ devices: { 1: { id: 1 } as never, 2: { id: 2 } as never } });
    });
    await act(() => vi.advanceTimersByTimeAsync(SOCKET_SETTLE_MS));
    vi.useRealTimers();
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('other kinds are read again when the socket comes back after a drop, not on its first connection', async () => {
    const calls = stubFetch(() => json([]));
    const { result } = renderCollection('geofences');
    await waitFor(() => expect(result.current.state).toBe('empty'));
    act(() => setSocketStatus('open'));
    act(() => useLive.setState({ devices: { 1: { id: 1 } as never } }));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.map((c) => c.url)).toEqual(['/api/geofences']);
    act(() => setSocketStatus('closed'));
    act(() => setSocketStatus('open'));
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
