// Test helpers for the collection kit: a stubbed server, a rendering wrapper, and a layout
// (happy-dom has none, so the virtual lists would draw no rows without a size).
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const text = (body: string, status: number) => new Response(body, { status, headers: { 'content-type': 'text/plain' } });

export interface Call {
  method: string;
  url: string;
  body: unknown;
  signal?: AbortSignal;
}

/** Answers each request with `route`, recording every call. */
export function stubFetch(route: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', url: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    // The signal goes to the route only: recorded calls stay plain for toEqual.
    return route({ ...call, signal: init?.signal ?? undefined });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

export function newClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

/** Gives every element a 390 × 400 box (a phone's width) until the returned function runs. */
export function fakeLayout(): () => void {
  const proto = HTMLElement.prototype;
  const saved = ['clientHeight', 'clientWidth'].map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)] as const);
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => 390 });
  return () => {
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(proto, k, d);
      else delete (proto as unknown as Record<string, unknown>)[k];
    }
  };
}
