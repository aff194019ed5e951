// The server's REST API as the administrator (or any user), to prepare what a test needs.
import { request, type APIRequestContext } from '@playwright/test';
import type { Device, User } from '@rastro/domain/entities';
import { ADMIN_PASSWORD, env } from './env.ts';

export class Api {
  private constructor(readonly context: APIRequestContext, readonly user: User) {}

  /** Logs in with the form, like the web client; the context keeps the session cookie. */
  static async login(email: string, password: string): Promise<Api> {
    const context = await request.newContext({ baseURL: env.baseUrl });
    const res = await context.post('/api/session', { form: { email, password } });
    if (!res.ok()) throw new Error(`login ${email} failed: ${res.status()} ${await res.text()}`);
    return new Api(context, (await res.json()) as User);
  }

  static admin(): Promise<Api> {
    return Api.login('admin', ADMIN_PASSWORD);
  }

  private async send<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown): Promise<T> {
    const res = await this.context.fetch(url, { method, data });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${url} → ${res.status()} ${text}`);
    return (text && (res.headers()['content-type'] ?? '').includes('json') ? JSON.parse(text) : text) as T;
  }

  get<T>(url: string) {
    return this.send<T>('GET', url);
  }
  post<T>(url: string, data: unknown) {
    return this.send<T>('POST', url, data);
  }
  put<T>(url: string, data: unknown) {
    return this.send<T>('PUT', url, data);
  }

  /** A new user; the name is unique per call. */
  createUser(values: Partial<User> & { password: string }): Promise<User> {
    const stamp = uniqueSuffix();
    return this.post<User>('/api/users', { name: `E2E User ${stamp}`, email: `e2e-${stamp}@example.com`, ...values });
  }

  createDevice(values: Partial<Device> = {}): Promise<Device> {
    const stamp = uniqueSuffix();
    return this.post<Device>('/api/devices', { name: `Vehicle ${stamp}`, uniqueId: `e2e${stamp}`, ...values });
  }

  link(body: Record<string, number>): Promise<unknown> {
    return this.post('/api/permissions', body);
  }

  /** A login token for this API's user (POST /api/session/token). */
  async token(expiration?: Date): Promise<string> {
    const res = await this.context.post('/api/session/token', { form: expiration ? { expiration: expiration.toISOString() } : {} });
    if (!res.ok()) throw new Error(`token → ${res.status()} ${await res.text()}`);
    return (await res.text()).trim();
  }

  async setRegistration(enabled: boolean): Promise<void> {
    const server = await this.get<Record<string, unknown>>('/api/server');
    await this.put('/api/server', { ...server, registration: enabled });
  }

  dispose(): Promise<void> {
    return this.context.dispose();
  }
}

let counter = 0;
export function uniqueSuffix(): string {
  counter += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}
