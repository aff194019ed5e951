// The audit table's queries: append rows, read a page of them (whole server, one user, one
// device; narrowed to a manager's tree), read a period in Traccar's shape, and remove rows
// past the retention. Nothing here updates a row: the log is append-only.
import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type { AuditLogTable, Database } from '../storage/schema.ts';
import { visibleDeviceIdsQuery } from '../access/visibility.ts';
import { maskSecrets } from './audit-mask.ts';

type Db = Kysely<Database>;
export type AuditLogRow = Selectable<AuditLogTable>;

/** One row to write. `data` / `old` are masked here, whoever calls. */
export interface AuditEntry {
  time: number;
  code: number;
  userId: number | null;
  userName: string | null;
  userIp: string | null;
  userAgent: string | null;
  objectType: string | null;
  objectId: number | null;
  relatedType?: string | null;
  relatedId?: number | null;
  data?: Record<string, unknown> | null;
  old?: Record<string, unknown> | null;
  status: number | null;
}

export interface AuditPage {
  /** Instants (ms), both inclusive. */
  from?: number;
  to?: number;
  limit: number;
  offset: number;
  /** Rows about this user: done by them, or naming them as object or as a link's other side. */
  user?: number;
  /** Rows naming this device as object or as a link's other side. */
  device?: number;
  /**
   * A manager's view: only rows whose actor is in the manager's tree (the manager and every
   * user below it through manager links, at any depth) or whose object or other side is a
   * user of that tree or a device the manager sees (visibility.ts, which counts the devices of
   * its tree). Absent for administrators.
   */
  treeOf?: number;
}

/** The longest answer of `GET /api/audit` (Traccar has no page parameters there). */
export const TRACCAR_AUDIT_MAX = 100_000;

const clip = (text: string | null, max: number): string | null => (text === null ? null : text.length > max ? text.slice(0, max) : text);
const json = (value: Record<string, unknown> | null | undefined): string | null => (value ? JSON.stringify(value) : null);

export class AuditRepo {
  constructor(private readonly db: Db) {}

  async insert(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((e) => {
      const [data, old] = maskSecrets(e.data ?? null, e.old ?? null);
      return {
        time: e.time,
        code: e.code,
        userId: e.userId,
        userName: clip(e.userName, 255),
        userIp: clip(e.userIp, 64),
        userAgent: clip(e.userAgent, 512),
        objectType: e.objectType,
        objectId: e.objectId,
        relatedType: e.relatedType ?? null,
        relatedId: e.relatedId ?? null,
        data: json(data),
        old: json(old),
        status: e.status,
      };
    });
    // Bulk links can make many rows: a few hundred per statement stays under every bind limit.
    for (let i = 0; i < rows.length; i += 200) await this.db.insertInto('auditLog').values(rows.slice(i, i + 200)).execute();
  }

  /** A page of rows, newest first. */
  async page(p: AuditPage): Promise<AuditLogRow[]> {
    const managerId = p.treeOf;
    const conditions = AuditRepo.conditions(p);
    if (managerId === undefined) {
      return this.db
        .selectFrom('auditLog')
        .selectAll()
        .where(conditions)
        .orderBy('time', 'desc')
        .orderBy('id', 'desc')
        .limit(p.limit)
        .offset(p.offset)
        .execute();
    }
    // The tree: the manager and, recursively, the users it manages (UNION stops at cycles).
    const scoped = this.db.withRecursive('auditTree(id)', (db) =>
      db
        .selectFrom('users')
        .select('users.id')
        .where('users.id', '=', managerId)
        .union((qb) => qb.selectFrom('userUser').innerJoin('auditTree', 'auditTree.id', 'userUser.ownerId').select('userUser.propertyId as id')),
    );
    // Devices in its tree: those the manager sees (the visibility module's rule).
    const devices = visibleDeviceIdsQuery(this.db, managerId);
    return scoped
      .selectFrom('auditLog')
      .selectAll('auditLog')
      .where(conditions)
      .where((eb) => {
        const tree = eb.selectFrom('auditTree').select('auditTree.id');
        return eb.or([
          eb('auditLog.userId', 'in', tree),
          eb.and([eb('auditLog.objectType', '=', 'user'), eb('auditLog.objectId', 'in', tree)]),
          eb.and([eb('auditLog.relatedType', '=', 'user'), eb('auditLog.relatedId', 'in', tree)]),
          eb.and([eb('auditLog.objectType', '=', 'device'), eb('auditLog.objectId', 'in', devices)]),
          eb.and([eb('auditLog.relatedType', '=', 'device'), eb('auditLog.relatedId', 'in', devices)]),
        ]);
      })
      .orderBy('auditLog.time', 'desc')
      .orderBy('auditLog.id', 'desc')
      .limit(p.limit)
      .offset(p.offset)
      .execute();
  }

  /** Period and subject of a page (the conditions every page shares). */
  private static conditions(p: AuditPage) {
    return (eb: ExpressionBuilder<Database, 'auditLog'>): Expression<SqlBool> => {
      const all: Expression<SqlBool>[] = [];
      if (p.from !== undefined) all.push(eb('auditLog.time', '>=', p.from));
      if (p.to !== undefined) all.push(eb('auditLog.time', '<=', p.to));
      if (p.user !== undefined) {
        all.push(eb.or([
          eb('auditLog.userId', '=', p.user),
          eb.and([eb('auditLog.objectType', '=', 'user'), eb('auditLog.objectId', '=', p.user)]),
          eb.and([eb('auditLog.relatedType', '=', 'user'), eb('auditLog.relatedId', '=', p.user)]),
        ]));
      }
      if (p.device !== undefined) {
        all.push(eb.or([
          eb.and([eb('auditLog.objectType', '=', 'device'), eb('auditLog.objectId', '=', p.device)]),
          eb.and([eb('auditLog.relatedType', '=', 'device'), eb('auditLog.relatedId', '=', p.device)]),
        ]));
      }
      return eb.and(all);
    };
  }

  /** Rows of a period, oldest first, as `GET /api/audit` lists them. */
  period(from: number, to: number): Promise<AuditLogRow[]> {
    return this.db
      .selectFrom('auditLog')
      .selectAll()
      .where('time', '>=', from)
      .where('time', '<=', to)
      .orderBy('time')
      .orderBy('id')
      .limit(TRACCAR_AUDIT_MAX)
      .execute();
  }

  /** Removes up to `batch` rows older than `before` (ms); answers how many went. */
  async removeOlderThan(before: number, batch: number): Promise<number> {
    const db = this.db;
    const oldest = db.selectFrom('auditLog').select('id').where('time', '<', before).orderBy('id').limit(batch);
    const result = await db.deleteFrom('auditLog').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
