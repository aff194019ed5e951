// What one entry of the audited-route table (audited-routes.ts) is, and the helpers most
// entries are made of: an object created, edited or removed through its `/:id` path.
import type { AuditCode, AuditObjectType } from '@rastro/domain/audit';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { loadAuditObject } from './audit-objects.ts';

/** The request, as the table's functions see it. */
export interface RouteCall {
  ctx: AppContext;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The signed-in caller (null on public routes without a session). */
  caller: UserRow | null;
}

/** The request once answered. */
export interface AnsweredCall extends RouteCall {
  status: number;
  /** A 2xx answer: the action happened. */
  ok: boolean;
  /** The JSON body of a 2xx answer (null otherwise, and for text or empty answers). */
  response: unknown;
  /** What `before` loaded (null when it loaded nothing). */
  before: Record<string, unknown> | null;
}

/** One row to write; the recorder adds time, actor, address, agent and status. */
export interface AuditDraft {
  code: AuditCode;
  objectType: AuditObjectType | null;
  objectId: number | null;
  relatedType?: AuditObjectType | null;
  relatedId?: number | null;
  data?: Record<string, unknown> | null;
  old?: Record<string, unknown> | null;
  /** Someone other than the caller did it: the user who just signed in or registered. */
  actor?: { userId: number | null; userName: string | null };
}

export interface AuditedRoute {
  /** Reads what the action will change, before it runs (edits and deletes: the `old` values). */
  before?(call: RouteCall): Promise<Record<string, unknown> | null>;
  /** The rows the answered request writes (none is fine: nothing happened worth a row). */
  rows(call: AnsweredCall): AuditDraft[] | Promise<AuditDraft[]>;
  /** Written without a signed-in caller too (logins, registration, password resets). */
  anonymous?: true;
}

/** A write route that writes no row, and why. */
export interface NotAudited {
  notAudited: string;
}

export type RouteEntry = AuditedRoute | NotAudited;

export const isAudited = (entry: RouteEntry): entry is AuditedRoute => 'rows' in entry;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The response as an object (null for arrays, text, nothing). */
export const responseObject = (call: AnsweredCall): Record<string, unknown> | null => (isRecord(call.response) ? call.response : null);

/** The body as an object (null otherwise). */
export const bodyObject = (call: RouteCall): Record<string, unknown> | null => (isRecord(call.body) ? call.body : null);

/** A positive whole number from a JSON value or a text, else null. */
export function idOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return idOf(Number(value));
  return null;
}

/** The object id in the path (`:id`, or whatever the one parameter is called). */
export function pathIdOf(call: RouteCall): number | null {
  const values = Object.values(call.params);
  return values.length > 0 ? idOf(values[values.length - 1]) : null;
}

/** `id` of the answer. */
export const responseId = (call: AnsweredCall): number | null => idOf(responseObject(call)?.id);

/** Loads the object named by the path, as the API shows it. */
export function loadFromPath(type: AuditObjectType) {
  return async (call: RouteCall) => {
    const id = pathIdOf(call);
    return id === null ? null : loadAuditObject(call.ctx, type, id);
  };
}

/** `POST <path>`: the answer is the new object. */
export function created(code: AuditCode, type: AuditObjectType): AuditedRoute {
  return {
    rows: (call) => [{ code, objectType: type, objectId: call.ok ? responseId(call) : null, data: call.ok ? responseObject(call) : null }],
  };
}

/** `PUT <path>/:id`: the object before, and the answer (the object as saved). */
export function edited(code: AuditCode, type: AuditObjectType): AuditedRoute {
  return {
    before: loadFromPath(type),
    rows: (call) => [{ code, objectType: type, objectId: pathIdOf(call), old: call.ok ? call.before : null, data: call.ok ? responseObject(call) : null }],
  };
}

/** `DELETE <path>/:id`: the object as it was. */
export function removed(code: AuditCode, type: AuditObjectType): AuditedRoute {
  return {
    before: loadFromPath(type),
    rows: (call) => [{ code, objectType: type, objectId: pathIdOf(call), old: call.ok ? call.before : null }],
  };
}

/** The create, edit and delete routes of a Traccar-style object path. */
export function crud(path: string, type: AuditObjectType, codes: { create: AuditCode; edit: AuditCode; remove: AuditCode }): Record<string, RouteEntry> {
  return {
    [`POST ${path}`]: created(codes.create, type),
    [`PUT ${path}/:id`]: edited(codes.edit, type),
    [`DELETE ${path}/:id`]: removed(codes.remove, type),
  };
}
