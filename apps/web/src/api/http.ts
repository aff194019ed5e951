// The typed fetch client for the tracking server (/api, 60 s) and the product extension
// (/tarkan, 30 s). Any status below 400 is success (spec §7); errors carry the code derived
// by the spec §8 rule so screens can translate them.
import { deriveErrorCode } from '@rastro/domain/errors';

export const TRACCAR_TIMEOUT_MS = 60_000;
export const EXTENSION_TIMEOUT_MS = 30_000;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Catalogue code (spec §8), e.g. HTTP_401_UNAUTHORIZED or CONNECTION_ERROR. */
    readonly code: string,
    /** The server's whole text, for "show details". */
    readonly text: string,
  ) {
    super(code);
  }
}

export type Query = Record<string, string | number | boolean | Array<string | number> | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** Sent as application/x-www-form-urlencoded (Traccar's session and password calls). */
  form?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RawResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function request<T>(base: string, path: string, options: RequestOptions, defaultTimeout: number): Promise<RawResponse<T>> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), options.timeoutMs ?? defaultTimeout);
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(base + path + buildQuery(options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: controller.signal,
    });
  } catch {
    throw new HttpError(0, 'CONNECTION_ERROR', '');
  } finally {
    clearTimeout(timeout);
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 400) {
    throw new HttpError(response.status, text ? deriveErrorCode(text) : `HTTP_${response.status}`, text);
  }
  const type = response.headers.get('content-type') ?? '';
  const data = (type.includes('json') && text ? JSON.parse(text) : text) as T;
  return { data, headers: response.headers, status: response.status };
}

/** Calls the tracking server under /api. */
export const api = {
  raw: <T>(path: string, options: RequestOptions = {}) => request<T>('/api', path, options, TRACCAR_TIMEOUT_MS),
  get: async <T>(path: string, query?: Query) => (await request<T>('/api', path, { query }, TRACCAR_TIMEOUT_MS)).data,
  post: async <T>(path: string, json?: unknown) => (await request<T>('/api', path, { method: 'POST', json }, TRACCAR_TIMEOUT_MS)).data,
  put: async <T>(path: string, json?: unknown) => (await request<T>('/api', path, { method: 'PUT', json }, TRACCAR_TIMEOUT_MS)).data,
  delete: async (path: string) => {
    await request<unknown>('/api', path, { method: 'DELETE' }, TRACCAR_TIMEOUT_MS);
  },
  form: async <T>(path: string, form: Record<string, string>) =>
    (await request<T>('/api', path, { method: 'POST', form }, TRACCAR_TIMEOUT_MS)).data,
};

/** Calls the product extension under /tarkan. */
export const extension = {
  raw: <T>(path: string, options: RequestOptions = {}) => request<T>('/tarkan', path, options, EXTENSION_TIMEOUT_MS),
};
