// Compares our answer to a request with Traccar's recorded one and lists every difference:
// the status; then, when Traccar recorded a body and both statuses agree, the JSON at every
// depth — keys present on one side only, JSON types, and values.
//
// How values are compared (what "ids and server times aside" means here):
// - Ids. `id` of an object whose kind is known (the request says what it lists; `events` and
//   `positions` inside a combined report are events and positions) and fields that reference
//   another object (deviceId, positionId, startPositionId, geofenceIds, … — id-map.ts) are
//   compared through the IdMap: ours must be the id we gave the object Traccar numbered so.
//   0 means "none" in Traccar and must stay 0. An id the map does not know is compared as is
//   for objects the world created (a literal 999999 in a request) and only as a positive
//   integer for objects the servers make on their own (positions, events, queued commands).
// - Server times. `serverTime` (position) and `lastUpdate` (device) are when the server took
//   the report: the recording ran on another day and machine, so only their JSON type counts.
//   `deviceTime` and `fixTime` come from the report itself and are compared as instants, like
//   every other timestamp: "2026-11-25T00:34:00.000+00:00" equals "2026-11-25T00:34:00Z".
// - Numbers are equal when they are, or when they differ by at most 1e-9 of their magnitude:
//   the last bits of a float sum depend on the order of the additions (distances, odometers,
//   average speeds), not on behaviour. Anything larger is a difference.
// - Arrays of objects with ids are paired by id (through the map) and of objects with a `type`
//   (the command and notification types) by type; arrays of strings (time zones) as sets. An
//   element on one side only is a missing/extra element; paired elements in another order are
//   one `order` difference of the array. Other arrays (report rows, route coordinates) are
//   compared index by index.
// - Time zone names are compared by the zone they name, as this runtime resolves them: Java
//   lists a zone under each of its names (US/Eastern beside America/New_York), so a name we do
//   not list is no difference when it is an alias of one we do (a stored alias still works).
import {
  NESTED_LIST_FIELDS, OPAQUE_KINDS, REFERENCE_FIELDS, REFERENCE_LIST_FIELDS, type IdKind, type IdMap,
} from './id-map.ts';

export type DiffKind = 'status' | 'missing' | 'extra' | 'type' | 'value' | 'order';

export interface Difference {
  request: string;
  /** `$` is the body; `.key` a member; `[id=3]` the element Traccar numbered 3, `[4]` an index. */
  path: string;
  kind: DiffKind;
  /** Traccar's value there (undefined: none). */
  traccar: unknown;
  /** Ours there (undefined: none). */
  ours: unknown;
  /** What the comparison expected when that is not Traccar's value itself (a mapped id). */
  note?: string;
}

/** A recorded or live answer: its status and, for a JSON answer, the parsed body. */
export interface Answer {
  status: number;
  json?: unknown;
  /** Our body when it was not JSON (shown in the diff). */
  text?: string;
}

/** Values compared only by JSON type: when the server received the report (see above). */
export const SERVER_TIME_FIELDS: ReadonlySet<string> = new Set(['serverTime', 'lastUpdate']);

const RELATIVE_TOLERANCE = 1e-9;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'none';

export function jsonType(value: unknown): JsonType {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'boolean' || type === 'number' || type === 'string' || type === 'object') return type;
  throw new Error(`not a JSON value: ${String(value)}`);
}

export interface CompareOptions {
  ids: IdMap;
  /** What the `id` of the answer's top-level objects (or of the elements of a top-level list) is. */
  kind?: IdKind;
}

export function compareAnswers(request: string, traccar: Answer, ours: Answer, options: CompareOptions): Difference[] {
  const out: Difference[] = [];
  if (traccar.status !== ours.status) {
    out.push({ request, path: '$', kind: 'status', traccar: traccar.status, ours: ours.status });
    return out; // the bodies of different outcomes say nothing more
  }
  if (traccar.json === undefined) return out; // an empty or error body: Traccar's was not kept
  const walker = new Walker(request, options.ids, out);
  if (ours.json === undefined) {
    out.push({ request, path: '$', kind: 'type', traccar: traccar.json, ours: ours.text ?? '', note: 'ours is not JSON' });
  } else {
    walker.value('$', traccar.json, ours.json, { elementKind: options.kind });
  }
  return out;
}

interface Context {
  /** Kind of the `id` of this object, or of the elements when this is an array. */
  elementKind?: IdKind;
  /** This value is an id of that kind. */
  idKind?: IdKind;
  /** This value is an array of ids of that kind. */
  idListKind?: IdKind;
  /** Compare the type only (server times). */
  typeOnly?: boolean;
}

class Walker {
  constructor(private readonly request: string, private readonly ids: IdMap, private readonly out: Difference[]) {}

  private add(path: string, kind: DiffKind, traccar: unknown, ours: unknown, note?: string): void {
    this.out.push({ request: this.request, path, kind, traccar, ours, ...(note ? { note } : {}) });
  }

  value(path: string, t: unknown, o: unknown, ctx: Context): void {
    const tt = jsonType(t);
    const to = jsonType(o);
    if (tt !== to) return this.add(path, 'type', t, o, `${tt} vs ${to}`);
    if (ctx.typeOnly) return;
    if (ctx.idKind && tt === 'number') return this.id(path, ctx.idKind, t as number, o as number);
    if (tt === 'object') return this.object(path, t as Record<string, unknown>, o as Record<string, unknown>, ctx.elementKind);
    if (tt === 'array') return this.array(path, t as unknown[], o as unknown[], ctx);
    if (!sameScalar(t, o)) this.add(path, 'value', t, o);
  }

  private object(path: string, t: Record<string, unknown>, o: Record<string, unknown>, kind: IdKind | undefined): void {
    for (const key of Object.keys(t)) {
      const child = `${path}.${key}`;
      if (!(key in o)) {
        this.add(child, 'missing', t[key], undefined);
        continue;
      }
      const ctx: Context =
        key === 'id' ? { idKind: kind }
        : SERVER_TIME_FIELDS.has(key) ? { typeOnly: true }
        : key in REFERENCE_FIELDS ? { idKind: REFERENCE_FIELDS[key] }
        : key in REFERENCE_LIST_FIELDS ? { idListKind: REFERENCE_LIST_FIELDS[key] }
        : key in NESTED_LIST_FIELDS ? { elementKind: NESTED_LIST_FIELDS[key] }
        : {};
      this.value(child, t[key], o[key], ctx);
    }
    for (const key of Object.keys(o)) if (!(key in t)) this.add(`${path}.${key}`, 'extra', undefined, o[key]);
  }

  private id(path: string, kind: IdKind, t: number, o: number): void {
    if (t === 0) {
      if (o !== 0) this.add(path, 'value', t, o);
      return;
    }
    const mapped = this.ids.ours(kind, t);
    if (mapped !== undefined) {
      if (o !== mapped) this.add(path, 'value', t, o, `Traccar's ${kind} ${t} is our ${mapped}`);
    } else if (OPAQUE_KINDS.has(kind)) {
      if (!Number.isInteger(o) || o <= 0) this.add(path, 'value', t, o, `a ${kind} id`);
    } else if (o !== t) {
      this.add(path, 'value', t, o);
    }
  }

  private array(path: string, t: unknown[], o: unknown[], ctx: Context): void {
    if (ctx.idListKind) {
      const kind = ctx.idListKind;
      const expected = t.map((id) => (typeof id === 'number' ? (this.ids.ours(kind, id) ?? id) : id));
      if (JSON.stringify(expected) !== JSON.stringify(o)) this.add(path, 'value', t, o, `expected ours ${JSON.stringify(expected)}`);
      return;
    }
    const kind = ctx.elementKind;
    const some = t.length > 0 || o.length > 0;
    if (some && everyObjectWith(t, 'id', 'number') && everyObjectWith(o, 'id', 'number')) {
      return this.paired(path, t, o, 'id', (x) => {
        const id = x.id as number;
        return kind ? (this.ids.ours(kind, id) ?? (OPAQUE_KINDS.has(kind) ? undefined : id)) : id;
      }, kind);
    }
    if (some && everyObjectWith(t, 'type', 'string') && everyObjectWith(o, 'type', 'string')) {
      return this.paired(path, t, o, 'type', (x) => x.type as string, kind);
    }
    if (some && t.every((x) => typeof x === 'string') && o.every((x) => typeof x === 'string')) {
      return this.stringSet(path, t as string[], o as string[]);
    }
    const common = Math.min(t.length, o.length);
    for (let i = 0; i < common; i++) this.value(`${path}[${i}]`, t[i], o[i], { elementKind: kind });
    for (let i = common; i < t.length; i++) this.add(`${path}[${i}]`, 'missing', t[i], undefined);
    for (let i = common; i < o.length; i++) this.add(`${path}[${i}]`, 'extra', undefined, o[i]);
  }

  /** Pairs elements by a key: `ourKey` gives, for a Traccar element, the key its twin has on our side. */
  private paired(
    path: string, t: unknown[], o: unknown[], field: 'id' | 'type',
    ourKey: (x: Record<string, unknown>) => unknown, kind: IdKind | undefined,
  ): void {
    const ours = o as Array<Record<string, unknown>>;
    const used = new Set<number>();
    const pairs: Array<{ label: unknown; at: number }> = [];
    for (const element of t as Array<Record<string, unknown>>) {
      const label = `${path}[${field}=${String(element[field])}]`;
      const want = ourKey(element);
      const at = want === undefined ? -1 : ours.findIndex((x, i) => !used.has(i) && x[field] === want);
      if (at < 0) {
        this.add(label, 'missing', element, undefined);
        continue;
      }
      used.add(at);
      pairs.push({ label: element[field], at });
      this.value(label, element, ours[at], { elementKind: kind });
    }
    ours.forEach((x, i) => {
      if (!used.has(i)) this.add(`${path}[${field}=ours:${String(x[field])}]`, 'extra', undefined, x);
    });
    // Both orders are told in Traccar's terms (its ids), so they read side by side.
    if (pairs.some((p, i) => i > 0 && p.at < pairs[i - 1]!.at)) {
      const ourOrder = [...pairs].sort((a, b) => a.at - b.at).map((p) => p.label);
      this.add(path, 'order', pairs.map((p) => p.label), ourOrder, `by Traccar's ${field}`);
    }
  }

  private stringSet(path: string, t: string[], o: string[]): void {
    const ours = new Set(o.map(zoneOf));
    const theirs = new Set(t.map(zoneOf));
    for (const s of t) if (!ours.has(zoneOf(s))) this.add(`${path}[=${s}]`, 'missing', s, undefined);
    for (const s of o) if (!theirs.has(zoneOf(s))) this.add(`${path}[=${s}]`, 'extra', undefined, s);
    // The order of what both list, each zone once (at its first name).
    const commonT = [...new Set(t.map(zoneOf).filter((z) => ours.has(z)))];
    const commonO = [...new Set(o.map(zoneOf).filter((z) => theirs.has(z)))];
    if (commonT.join('\n') !== commonO.join('\n')) this.add(path, 'order', commonT.slice(0, 5), commonO.slice(0, 5), 'first common elements');
  }
}

const zones = new Map<string, string>();

/** The zone a time zone name stands for in this runtime (its canonical name); any other string is itself. */
export function zoneOf(name: string): string {
  let zone = zones.get(name);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      zone = name;
    }
    zones.set(name, zone);
  }
  return zone;
}

function everyObjectWith(list: unknown[], field: string, type: 'number' | 'string'): boolean {
  return list.every((x) => jsonType(x) === 'object' && typeof (x as Record<string, unknown>)[field] === type);
}

function sameScalar(t: unknown, o: unknown): boolean {
  if (t === o) return true;
  if (typeof t === 'number' && typeof o === 'number') {
    return Math.abs(t - o) <= RELATIVE_TOLERANCE * Math.max(Math.abs(t), Math.abs(o));
  }
  if (typeof t === 'string' && typeof o === 'string' && TIMESTAMP.test(t) && TIMESTAMP.test(o)) {
    return Date.parse(t) === Date.parse(o);
  }
  return false;
}
