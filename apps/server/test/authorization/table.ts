// The shape of one row of the authorization table: a route as Fastify registered it, one way of
// calling it (a variant: whose object, which parameters), how to build that call for a role,
// and what every role must get.
import type { AppContext } from '../../src/context.ts';
import type { TestClient } from '../harness.ts';
import type { Expect, Role, SignedInRole } from './roles.ts';
import type { EntityKind, Person, World } from './world.ts';

export interface CaseRequest {
  /** Path and query; the method is the row's. */
  path: string;
  /** A JSON body. */
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /**
   * 'http' (default): the web port; 'socket': a WebSocket upgrade whose first message's
   * positions are the answer; 'osmand': the device port (devices do not sign in).
   */
  target?: 'http' | 'socket' | 'osmand';
}

/** Disposable objects for one case, made as the administrator and removed after it. */
export interface Scratch {
  /** A device linked to `owner` (none: only the administrator, its creator, reaches it), with a position when asked. */
  device(owner: Person | null, options?: { position?: boolean }): Promise<number>;
  group(owner: Person | null): Promise<number>;
  entity(kind: EntityKind, owner: Person | null): Promise<number>;
  /** A plain user (an administrator when asked) managed by `manager` when given; it never signs in. */
  user(options: { administrator?: boolean }, manager: Person | null): Promise<number>;
  /** A command queued for `deviceId` (it is offline): the id of its lifecycle entry. */
  queuedCommand(deviceId: number): Promise<number>;
}

export interface CaseEnv {
  w: World;
  role: Role;
  /** The role's user id; null for anonymous. */
  self: number | null;
  login: Record<SignedInRole, { email: string; password: string }>;
  ctx: AppContext;
  /** Signed in as the first administrator, for arranging and restoring. */
  admin: TestClient;
  scratch: Scratch;
  /** Runs after the case's request, whatever it answered (puts back what the case changed). */
  after(fn: () => Promise<unknown>): void;
  /** The request creates an object: after a 2xx answer with an id, `DELETE <path>/<id>` as the administrator. */
  createsAt(path: string): void;
}

export interface Row {
  /** `METHOD /path` exactly as Fastify registered it ('GET /api/devices/:id'). */
  route: string;
  /** What this call of the route tries. */
  variant: string;
  /**
   * Credentials of the role for this case: by default its own session (or Basic for the
   * disabled role); 'fresh' a new session of its own, for routes that end or replace the
   * session; 'none' nothing (the body carries who is trying).
   */
  session?: 'fresh' | 'none';
  request(env: CaseEnv): CaseRequest | Promise<CaseRequest>;
  expect: Expect;
  /**
   * Set when no role passes, saying why: elsewhere a passing role shows the request itself is
   * well formed, so a 4xx of another role is a refusal and not a bad body.
   */
  nobodyPasses?: string;
}

/** Shorthand for a row whose request does not depend on the role. */
export const fixed = (path: string, extra: Omit<CaseRequest, 'path'> = {}) => (): CaseRequest => ({ path, ...extra });

/** ISO period query of the fixture's tracks. */
export const period = (w: World) => `from=${encodeURIComponent(w.period.from)}&to=${encodeURIComponent(w.period.to)}`;

/** The person a role is (anonymous is nobody). */
export const personOf = (role: Role): Person | null => (role === 'anonymous' ? null : role);
