// What one Traccar-style entity resource is (calendars, drivers, maintenance, computed
// attributes, notifications): its table and JSON, how a body becomes a row, the link tables
// that reach it, and the few rules of its own. resource-routes.ts serves every definition the
// same way — list with Traccar's list parameters, get, create with the creator linked, update,
// delete, permission checks, change publication — so a definition file holds only what
// differs. These are the stored objects; what the engines do with them (calendar gating,
// maintenance events, computed attribute evaluation, notification delivery) lives elsewhere.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Change, EntityChangeKind } from '../realtime/changes.ts';
import type { Database, LinkTableName } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import type { ApiError } from '../http/errors.ts';
import { registerLinkKind, registerObjectKind } from '../permissions/link-kinds.ts';

export type ResourceTableName = 'calendars' | 'drivers' | 'maintenances' | 'computedAttributes' | 'notifications';

/** A stored row (every resource table has a numeric `id`, which generic code needs to see). */
export type ResourceRow<T extends ResourceTableName> = Selectable<Database[T]> & { id: number };
export type ResourceValues<T extends ResourceTableName> = Insertable<Database[T]>;

/** Column names of a resource table (trusted references for queries). */
export type ResourceColumn<T extends ResourceTableName> = keyof Database[T] & string;

export interface ResourceDefinition<T extends ResourceTableName> {
  table: T;
  /** Singular, for messages and permission errors: "calendar", "computed attribute". */
  label: string;
  /** Route prefix: "/api/calendars". */
  path: string;
  /** Key naming it in /api/permissions bodies: "calendarId". */
  key: string;
  /** OBJECT_KINDS name and change kind. */
  kind: EntityChangeKind;
  /** Its link tables: the user link decides who reaches it; device and group links are what it applies to. */
  links: { user: LinkTableName; device?: LinkTableName; group?: LinkTableName };
  /** Columns returned besides `id`, without `attributes` (which excludeAttributes leaves out). */
  columns: readonly ResourceColumn<T>[];
  /** Whether the table has a free-form `attributes` column (computed attributes have none). */
  hasAttributes: boolean;
  /** Lists are sorted by this column (case-insensitive, nulls as ""), then by id. */
  orderBy: ResourceColumn<T>;
  /** Columns `keyword` searches. */
  search: readonly ResourceColumn<T>[];
  /** Traccar's "simple" lists (calendars) take no deviceId / groupId. */
  simpleList?: boolean;
  /** Only administrators create, change and delete them (computed attributes: expressions run on every position). */
  adminWrites?: boolean;
  toJson(row: ResourceRow<T>): unknown;
  /** The row of a create body (400 when invalid). */
  fromCreate(body: unknown): ResourceValues<T>;
  /** The row of an update body merged over the current one (400 when invalid or empty). */
  fromUpdate(body: unknown, current: ResourceRow<T>): ResourceValues<T>;
  /** Rules beyond the body: references the caller must be able to use. Runs before the write. */
  check?(ctx: AppContext, user: UserRow, values: ResourceValues<T>, current: ResourceRow<T> | null): Promise<void>;
  /** The refusal a unique index's violation means (drivers' uniqueId). */
  duplicate?(values: ResourceValues<T>): ApiError;
  /** Runs in the delete's transaction before the row goes; returns what else changed. */
  beforeDelete?(trx: Kysely<Database>, id: number): Promise<Change[]>;
}

/**
 * Makes the resource known to /api/permissions: its object kind (reached through its user
 * link) and one link kind per link table. Registering again replaces the same entries.
 */
export function registerResourceKinds<T extends ResourceTableName>(def: ResourceDefinition<T>): void {
  registerObjectKind(def.kind, { table: def.table, label: def.label, access: { userLink: def.links.user } });
  const owners = [['userId', 'user', def.links.user], ['deviceId', 'device', def.links.device], ['groupId', 'group', def.links.group]] as const;
  for (const [ownerKey, owner, table] of owners) {
    if (table) registerLinkKind({ ownerKey, propertyKey: def.key, table, owner, property: def.kind });
  }
}
