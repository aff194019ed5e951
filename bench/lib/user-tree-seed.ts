// Synthetic reseller trees for the users benchmark (bench/users.ts): an administrator,
// resellers, their sub-resellers and the customers below them, with customers' vehicles
// linked directly or through a group, written in bulk with explicit ids (far faster than the
// API, which the benchmark keeps for what it measures). The `userUser` links are inserted
// top-down through the real triggers of migration 011, so `userTree` is built exactly as the
// server builds it when managers create users one by one. Also a flat fleet: one user linked
// to every device, the baseline of the socket fan-out.
import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Storage } from '../../apps/server/src/storage/db.ts';
import type { Database, UserTable } from '../../apps/server/src/storage/schema.ts';
import { RESELLER_KEYS } from '@rastro/domain/resellers';
import { hashPassword } from '../../apps/server/src/auth/passwords.ts';
import { deviceRow, lcg } from './fleet-seed.ts';

type Db = Kysely<Database>;

/** Rows per multi-row INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

export interface TreeShape {
  /** Users in all, the administrator included. */
  users: number;
  devices: number;
  resellers: number;
  /** Sub-resellers under each reseller. */
  subsPerReseller: number;
  /** Share of customers that run a fleet (the rest have one vehicle). */
  fleetShare: number;
  /** Share of fleet customers whose vehicles are in a group linked to them (the rest: direct links). */
  groupShare: number;
}

export interface SeededTree {
  adminId: number;
  resellerIds: number[];
  subIds: number[];
  customers: number;
  groups: number;
  directLinks: number;
  treeRows: number;
  /** The users and objects the benchmark measures with. */
  probe: {
    reseller: { id: number; email: string };
    sub: { id: number; email: string };
    customer: { id: number; email: string; deviceIds: number[]; viaGroup: boolean };
    /** A device of another customer of the same sub-reseller: what the reseller links to `customer`. */
    foreignDeviceId: number;
    /** The device whose position is posted (one of the customer's). */
    uniqueId: string;
    deviceId: number;
  };
  seconds: { users: number; links: number; devices: number };
}

export interface SeededFlat {
  adminId: number;
  user: { id: number; email: string };
  uniqueId: string;
  deviceId: number;
}

export const ADMIN_EMAIL = 'admin@bench';

function userRow(id: number, name: string, email: string, hash: { hashedPassword: string; salt: string }, role: 'admin' | 'reseller' | 'sub' | 'customer'): Insertable<UserTable> {
  const manager = role !== 'customer';
  const attributes =
    role === 'reseller' ? { [RESELLER_KEYS.reseller]: true, [RESELLER_KEYS.subReseller]: true, [RESELLER_KEYS.limit]: -1 }
    : role === 'sub' ? { [RESELLER_KEYS.reseller]: true, [RESELLER_KEYS.limit]: -1 }
    : {};
  return {
    id, name, login: null, email, phone: null, readonly: 0, administrator: role === 'admin' ? 1 : 0, map: null, latitude: 0,
    longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0, expirationTime: null,
    deviceLimit: -1, userLimit: manager ? -1 : 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0,
    poiLayer: null, temporary: 0, totpKey: null, hashedPassword: hash.hashedPassword, salt: hash.salt,
    attributes: JSON.stringify(attributes),
  };
}

async function insertChunked<T>(rows: T[], write: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** Explicit ids were inserted: move PostgreSQL's sequences past them (SQLite follows max(id) itself). */
async function syncSequences(storage: Storage, tables: string[]): Promise<void> {
  if (storage.dialect !== 'postgres') return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 1))`.execute(storage.db);
  }
}

async function settle(storage: Storage): Promise<void> {
  // What an operator's database has once autovacuum has passed (statistics, visibility map for
  // index-only scans); SQLite gets no statistics, as the server runs no ANALYZE.
  if (storage.dialect === 'postgres') await sql`vacuum analyze`.execute(storage.db);
}

/**
 * Seeds a reseller tree: `resellers` × `subsPerReseller` sub-resellers, the remaining users as
 * customers spread over the sub-resellers (ids interleaved, as users created over years are),
 * each customer with one vehicle or, for fleets, several (together `devices`), linked
 * directly or through a group of their own. Every user's password is `password`.
 */
export async function seedTree(storage: Storage, shape: TreeShape, password: string): Promise<SeededTree> {
  const db = storage.db;
  const hash = await hashPassword(password);
  const subsTotal = shape.resellers * shape.subsPerReseller;
  const customers = shape.users - 1 - shape.resellers - subsTotal;
  if (customers < subsTotal) throw new Error(`--users ${shape.users} leaves fewer customers than sub-resellers`);
  if (shape.devices < customers) throw new Error(`--devices ${shape.devices} is fewer than the ${customers} customers (one vehicle each at least)`);
  const adminId = 1;
  const resellerIds = Array.from({ length: shape.resellers }, (_, i) => 2 + i);
  const subIds = Array.from({ length: subsTotal }, (_, i) => 2 + shape.resellers + i);
  const firstCustomer = 2 + shape.resellers + subsTotal;
  const subOfCustomer = (k: number) => subIds[k % subsTotal]!;
  const resellerOfSub = (s: number) => resellerIds[Math.floor((s - subIds[0]!) / shape.subsPerReseller)]!;

  const t0 = performance.now();
  const users: Array<Insertable<UserTable>> = [userRow(adminId, 'Administrador', ADMIN_EMAIL, hash, 'admin')];
  resellerIds.forEach((id, i) => users.push(userRow(id, `Revenda ${i + 1}`, `reseller-${i + 1}@bench`, hash, 'reseller')));
  subIds.forEach((id, i) => users.push(userRow(id, `Sub-revenda ${i + 1}`, `sub-${i + 1}@bench`, hash, 'sub')));
  for (let k = 0; k < customers; k++) users.push(userRow(firstCustomer + k, `Cliente ${k + 1}`, `customer-${k + 1}@bench`, hash, 'customer'));
  await db.transaction().execute((trx) => insertChunked(users, (part) => trx.insertInto('users').values(part).execute()));
  const t1 = performance.now();

  // Top-down, so each new link adds only the rows of its own ancestors (the triggers' work stays small).
  const links: Array<{ ownerId: number; propertyId: number }> = [];
  for (const s of subIds) links.push({ ownerId: resellerOfSub(s), propertyId: s });
  for (let k = 0; k < customers; k++) links.push({ ownerId: subOfCustomer(k), propertyId: firstCustomer + k });
  await db.transaction().execute((trx) => insertChunked(links, (part) => trx.insertInto('userUser').values(part).execute()));
  const t2 = performance.now();

  // Fleet sizes: one vehicle each; the rest spread at random over the fleet customers.
  const rnd = lcg(13);
  const fleet: number[] = [];
  for (let k = 0; k < customers; k++) if (rnd() < shape.fleetShare) fleet.push(k);
  if (fleet.length === 0) fleet.push(0);
  const size = new Array<number>(customers).fill(1);
  for (let extra = shape.devices - customers; extra > 0; extra--) size[fleet[Math.floor(rnd() * fleet.length)]!]!++;
  // Device ids in a shuffled order: vehicles arrive over time, not customer by customer.
  const owners: number[] = [];
  for (let k = 0; k < customers; k++) for (let n = 0; n < size[k]!; n++) owners.push(k);
  for (let i = owners.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [owners[i], owners[j]] = [owners[j]!, owners[i]!];
  }
  const grouped = new Map<number, number>(); // customer -> group id
  for (const k of fleet) if (size[k]! > 1 && rnd() < shape.groupShare) grouped.set(k, grouped.size + 1);
  const devicesOf = new Map<number, number[]>();
  const deviceRows = owners.map((k, i) => {
    const id = i + 1;
    const list = devicesOf.get(k);
    if (list) list.push(id);
    else devicesOf.set(k, [id]);
    return { ...deviceRow(`bench-${String(id).padStart(7, '0')}`, grouped.get(k) ?? null), id, name: `Veículo ${id}` };
  });
  const groupRows = [...grouped].map(([k, id]) => ({ id, name: `Frota cliente ${k + 1}`, groupId: null, attributes: '{}' }));
  const userGroup = [...grouped].map(([k, id]) => ({ ownerId: firstCustomer + k, propertyId: id }));
  const userDevice: Array<{ ownerId: number; propertyId: number }> = [];
  deviceRows.forEach((d, i) => {
    const k = owners[i]!;
    if (!grouped.has(k)) userDevice.push({ ownerId: firstCustomer + k, propertyId: d.id });
  });
  await db.transaction().execute(async (trx) => {
    await insertChunked(groupRows, (part) => trx.insertInto('groups').values(part).execute());
    await insertChunked(deviceRows, (part) => trx.insertInto('devices').values(part).execute());
    await insertChunked(userGroup, (part) => trx.insertInto('userGroup').values(part).execute());
    await insertChunked(userDevice, (part) => trx.insertInto('userDevice').values(part).execute());
  });
  await syncSequences(storage, ['users', 'groups', 'devices']);
  await settle(storage);
  const t3 = performance.now();

  // Probes: the first reseller, its first sub-reseller, and that sub-reseller's grouped fleet
  // customer with the most vehicles (the customer list then exercises the group path).
  const reseller = resellerIds[0]!;
  const sub = subIds[0]!;
  const mine = Array.from({ length: customers }, (_, k) => k).filter((k) => subOfCustomer(k) === sub);
  const best = (pool: number[]) => pool.reduce((a, b) => (size[b]! > size[a]! ? b : a), pool[0]!);
  const customerK = best(mine.filter((k) => grouped.has(k)).length > 0 ? mine.filter((k) => grouped.has(k)) : mine);
  const otherK = mine.find((k) => k !== customerK)!;
  const customerDevices = devicesOf.get(customerK)!;
  const treeRows = Number((await db.selectFrom('userTree').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    adminId, resellerIds, subIds, customers, groups: groupRows.length, directLinks: userDevice.length, treeRows,
    probe: {
      reseller: { id: reseller, email: `reseller-1@bench` },
      sub: { id: sub, email: `sub-${sub - subIds[0]! + 1}@bench` },
      customer: { id: firstCustomer + customerK, email: `customer-${customerK + 1}@bench`, deviceIds: customerDevices, viaGroup: grouped.has(customerK) },
      foreignDeviceId: devicesOf.get(otherK)![0]!,
      uniqueId: deviceRows[customerDevices[0]! - 1]!.uniqueId,
      deviceId: customerDevices[0]!,
    },
    seconds: { users: (t1 - t0) / 1000, links: (t2 - t1) / 1000, devices: (t3 - t2) / 1000 },
  };
}

/** A flat fleet: the administrator and one user linked directly to every one of `devices` devices. */
export async function seedFlat(storage: Storage, devices: number, password: string): Promise<SeededFlat> {
  const db: Db = storage.db;
  const hash = await hashPassword(password);
  const email = 'fleet@bench';
  const rows = Array.from({ length: devices }, (_, i) => ({ ...deviceRow(`bench-${String(i + 1).padStart(7, '0')}`, null), id: i + 1, name: `Veículo ${i + 1}` }));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values([userRow(1, 'Administrador', ADMIN_EMAIL, hash, 'admin'), userRow(2, 'Frota', email, hash, 'customer')]).execute();
    await insertChunked(rows, (part) => trx.insertInto('devices').values(part).execute());
    await insertChunked(rows.map((r) => ({ ownerId: 2, propertyId: r.id })), (part) => trx.insertInto('userDevice').values(part).execute());
  });
  await syncSequences(storage, ['users', 'devices']);
  await settle(storage);
  // The same position of the tree run: a device in the middle of the id range.
  const deviceId = Math.ceil(devices / 2);
  return { adminId: 1, user: { id: 2, email }, uniqueId: rows[deviceId - 1]!.uniqueId, deviceId };
}
