// The geofences the events engine tests positions against, in memory: every geofence (area
// parsed once, with a bounding box that rejects most positions before the exact test), and
// which geofences apply to which device (linked to the device, or to its group or any parent
// group — Traccar's tc_device_geofence / tc_group_geofence). Loaded at start; reloaded (whole,
// coalesced) on geofence, permission and group changes; a device's list is memoised and
// rebuilt when its group changes. No database read per message. A spatial index (grid over
// the bounding boxes, @rastro/domain/geofence-index) gives the few geofences near a fix; they
// are intersected with the device's linked set, so a fix costs the same with 10 or 10,000
// linked zones.
import { areaContains, DEFAULT_POLYLINE_DISTANCE_M, parseArea, type GeofenceArea } from '@rastro/domain/geofence-area';
import { hysteresisFrom, type Hysteresis } from '@rastro/domain/geofence-crossing';
import { areaBox, GeofenceIndex, type Box } from '@rastro/domain/geofence-index';
import type { AppContext } from '../context.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { asNumber, type DeviceSettingsSource } from './attribute-lookup.ts';

export interface CachedGeofence {
  id: number;
  area: GeofenceArea;
  calendarId: number;
  /** Knots; 0 = none (used by overspeed). */
  speedLimit: number;
  polylineDistance: number;
  /** Altitude bounds in metres, 0 = none. */
  floor: number;
  ceiling: number;
  /** Bounding box in degrees grown by the exit buffer, or null when it cannot be used (antimeridian, poles). */
  box: Box | null;
  /** Dwell time and exit buffer (attributes `dwellTime` s, `exitBuffer` m). */
  hysteresis: Hysteresis;
}

export interface GeofenceRow {
  id: number;
  area: string;
  calendarId: number | null;
  attributes: string | Record<string, unknown>;
}

/** A geofence row as the cache keeps it; null when its area does not parse. */
export function cacheGeofence(row: GeofenceRow): CachedGeofence | null {
  const parsed = parseArea(row.area);
  if (!parsed.ok) return null;
  let attributes: Record<string, unknown> = {};
  if (typeof row.attributes === 'string') {
    try {
      const v = JSON.parse(row.attributes) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) attributes = v as Record<string, unknown>;
    } catch {
      /* unreadable attributes: none */
    }
  } else attributes = row.attributes;
  const polylineDistance = asNumber(attributes.polylineDistance) ?? DEFAULT_POLYLINE_DISTANCE_M;
  const hysteresis = hysteresisFrom(attributes);
  return {
    id: Number(row.id),
    area: parsed.area,
    calendarId: row.calendarId === null ? 0 : Number(row.calendarId),
    speedLimit: asNumber(attributes.speedLimit) ?? 0,
    polylineDistance,
    floor: asNumber(attributes.floor) ?? 0,
    ceiling: asNumber(attributes.ceiling) ?? 0,
    // Grown by the exit buffer: a fix still within the buffer must come back from the index.
    box: areaBox(parsed.area, polylineDistance, hysteresis.exitBufferM),
    hysteresis,
  };
}

/** Is the position inside the geofence (box, altitude bounds, then the exact area test)? */
export function geofenceContains(g: CachedGeofence, latitude: number, longitude: number, altitude: number): boolean {
  const b = g.box;
  if (b && (latitude < b.minLat || latitude > b.maxLat || longitude < b.minLon || longitude > b.maxLon)) return false;
  if (g.floor !== 0 && altitude < g.floor) return false;
  if (g.ceiling !== 0 && altitude > g.ceiling) return false;
  return areaContains(g.area, latitude, longitude, g.polylineDistance);
}

interface Snapshot {
  geofences: Map<number, CachedGeofence>;
  index: GeofenceIndex;
  byDevice: Map<number, number[]>;
  byGroup: Map<number, number[]>;
  groupParent: Map<number, number | null>;
}

const EMPTY: readonly CachedGeofence[] = [];
const NO_IDS: ReadonlySet<number> = new Set();

/** The geofences that apply to a device, as a list (ascending id) and a set for the index intersection. */
interface Linked {
  list: readonly CachedGeofence[];
  ids: ReadonlySet<number>;
}

export class GeofenceCache {
  private snap: Snapshot = { geofences: new Map(), index: new GeofenceIndex([]), byDevice: new Map(), byGroup: new Map(), groupParent: new Map() };
  /** deviceId -> (groupId it was built for, its geofences). */
  private memo = new Map<number, { groupId: number | null; linked: Linked }>();
  /** groupId -> the linked set of a device with no links of its own in that group. */
  private groupMemo = new Map<number | null, Linked>();
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly ctx: Pick<AppContext, 'storage' | 'changes' | 'log'>) {}

  async start(): Promise<void> {
    this.unsubscribe = this.ctx.changes.on((change) => {
      if (change.kind === 'geofence' || change.kind === 'permissions' || change.kind === 'group') this.reload();
    });
    await this.reload();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Reloads everything; a request during a reload runs one more after it. Resolves when current. */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async () => {
      do {
        this.again = false;
        try {
          this.set(await this.read());
        } catch (error) {
          this.ctx.log.error({ err: error }, 'geofence cache reload failed');
        }
      } while (this.again);
    };
    this.running = run().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once no reload is pending (tests). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Replaces the cached data (the reload, and tests without a database). */
  set(data: { geofences: GeofenceRow[]; deviceLinks: Array<[number, number]>; groupLinks: Array<[number, number]>; groups: Array<[number, number | null]> }): void {
    const geofences = new Map<number, CachedGeofence>();
    for (const row of data.geofences) {
      const g = cacheGeofence(row);
      if (g) geofences.set(g.id, g);
    }
    const group = (links: Array<[number, number]>) => {
      const m = new Map<number, number[]>();
      for (const [owner, geofence] of links) {
        let list = m.get(owner);
        if (!list) m.set(owner, (list = []));
        list.push(geofence);
      }
      return m;
    };
    this.snap = { geofences, index: new GeofenceIndex(geofences.values()), byDevice: group(data.deviceLinks), byGroup: group(data.groupLinks), groupParent: new Map(data.groups) };
    this.memo = new Map();
    this.groupMemo = new Map();
  }

  byId(id: number): CachedGeofence | undefined {
    return this.snap.geofences.get(id);
  }

  /** The geofences applying to the device: its own links and those of its group chain. */
  forDevice(deviceId: number, device: DeviceSettingsSource): readonly CachedGeofence[] {
    return this.linked(deviceId, device).list;
  }

  /** The spatial index of every cached geofence (candidates by box; callers intersect with `linked`). */
  get index(): GeofenceIndex {
    return this.snap.index;
  }

  linked(deviceId: number, device: DeviceSettingsSource): Linked {
    const groupId = device.json.groupId;
    const hit = this.memo.get(deviceId);
    if (hit && hit.groupId === groupId) return hit.linked;
    const { geofences, byDevice, byGroup, groupParent } = this.snap;
    const own = byDevice.get(deviceId);
    // Devices without links of their own share their group's set (one per group, not per device:
    // 2,000 devices × 10,000 zones would otherwise be 20 million set entries).
    const shared = own ? undefined : this.groupMemo.get(groupId);
    if (shared) {
      this.memo.set(deviceId, { groupId, linked: shared });
      return shared;
    }
    const ids = new Set<number>(own ?? []);
    const seen = new Set<number>();
    for (let g = groupId; g && !seen.has(g); g = groupParent.get(g) ?? null) {
      seen.add(g);
      for (const id of byGroup.get(g) ?? []) ids.add(id);
    }
    const list: CachedGeofence[] = [];
    for (const id of ids) {
      const g = geofences.get(id);
      if (g) list.push(g);
    }
    const linked: Linked = list.length > 0 ? { list: list.sort((a, b) => a.id - b.id), ids: new Set(list.map((g) => g.id)) } : { list: EMPTY, ids: NO_IDS };
    this.memo.set(deviceId, { groupId, linked });
    if (!own) this.groupMemo.set(groupId, linked);
    return linked;
  }

  /** Ids of the device's geofences containing the position (ascending), or null for none (Traccar's plain test). */
  containing(deviceId: number, device: DeviceSettingsSource, position: PositionDraft): number[] | null {
    const { ids: linked } = this.linked(deviceId, device);
    if (linked.size === 0) return null;
    let ids: number[] | null = null;
    for (const id of this.snap.index.candidates(position.latitude, position.longitude)) {
      if (!linked.has(id)) continue;
      const g = this.snap.geofences.get(id)!;
      if (geofenceContains(g, position.latitude, position.longitude, position.altitude)) (ids ??= []).push(g.id);
    }
    return ids && ids.sort((a, b) => a - b);
  }

  private async read() {
    const db = this.ctx.storage.db;
    const [geofences, deviceLinks, groupLinks, groups] = await Promise.all([
      db.selectFrom('geofences').select(['id', 'area', 'calendarId', 'attributes']).execute(),
      db.selectFrom('deviceGeofence').select(['ownerId', 'propertyId']).execute(),
      db.selectFrom('groupGeofence').select(['ownerId', 'propertyId']).execute(),
      db.selectFrom('groups').select(['id', 'groupId']).execute(),
    ]);
    return {
      geofences: geofences.map((g) => ({ ...g, id: Number(g.id), calendarId: g.calendarId === null ? null : Number(g.calendarId) })),
      deviceLinks: deviceLinks.map((l): [number, number] => [Number(l.ownerId), Number(l.propertyId)]),
      groupLinks: groupLinks.map((l): [number, number] => [Number(l.ownerId), Number(l.propertyId)]),
      groups: groups.map((g): [number, number | null] => [Number(g.id), g.groupId === null ? null : Number(g.groupId)]),
    };
  }
}
