// The geofences the events engine tests positions against, in memory: every geofence (area
// parsed once, with a bounding box that rejects most positions before the exact test), and
// which geofences apply to which device (linked to the device, or to its group or any parent
// group — Traccar's tc_device_geofence / tc_group_geofence). Loaded at start; reloaded (whole,
// coalesced) on geofence, permission and group changes; a device's list is memoised and
// rebuilt when its group changes. No database read per message.
import { areaContains, DEFAULT_POLYLINE_DISTANCE_M, parseArea, type GeofenceArea } from '@rastro/domain/geofence-area';
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
  /** Bounding box in degrees, or null when it cannot be used (antimeridian, poles). */
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number } | null;
}

export interface GeofenceRow {
  id: number;
  area: string;
  calendarId: number | null;
  attributes: string | Record<string, unknown>;
}

const M_PER_DEG = 111_320;

function boundingBox(area: GeofenceArea, polylineDistance: number): CachedGeofence['box'] {
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  let margin = 0;
  if (area.type === 'circle') {
    minLat = maxLat = area.latitude;
    minLon = maxLon = area.longitude;
    margin = area.radius;
  } else {
    for (const [lat, lon] of area.points) {
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
      minLon = Math.min(minLon, lon);
      maxLon = Math.max(maxLon, lon);
    }
    if (area.type === 'linestring') margin = polylineDistance;
  }
  if (maxLon - minLon > 180) return null; // spans the antimeridian
  // 10 % extra on the margin: the exact tests use slightly different distance formulas.
  const dLat = (margin * 1.1) / M_PER_DEG + 1e-9;
  const maxAbsLat = Math.max(Math.abs(minLat), Math.abs(maxLat)) + dLat;
  if (maxAbsLat >= 89) return null;
  const dLon = (margin * 1.1) / (M_PER_DEG * Math.cos((maxAbsLat * Math.PI) / 180)) + 1e-9;
  if (minLon - dLon < -180 || maxLon + dLon > 180) return null;
  return { minLat: minLat - dLat, maxLat: maxLat + dLat, minLon: minLon - dLon, maxLon: maxLon + dLon };
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
  return {
    id: Number(row.id),
    area: parsed.area,
    calendarId: row.calendarId === null ? 0 : Number(row.calendarId),
    speedLimit: asNumber(attributes.speedLimit) ?? 0,
    polylineDistance,
    floor: asNumber(attributes.floor) ?? 0,
    ceiling: asNumber(attributes.ceiling) ?? 0,
    box: boundingBox(parsed.area, polylineDistance),
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
  byDevice: Map<number, number[]>;
  byGroup: Map<number, number[]>;
  groupParent: Map<number, number | null>;
}

const EMPTY: readonly CachedGeofence[] = [];

export class GeofenceCache {
  private snap: Snapshot = { geofences: new Map(), byDevice: new Map(), byGroup: new Map(), groupParent: new Map() };
  /** deviceId -> (groupId it was built for, its geofences). */
  private memo = new Map<number, { groupId: number | null; list: readonly CachedGeofence[] }>();
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
    this.snap = { geofences, byDevice: group(data.deviceLinks), byGroup: group(data.groupLinks), groupParent: new Map(data.groups) };
    this.memo = new Map();
  }

  byId(id: number): CachedGeofence | undefined {
    return this.snap.geofences.get(id);
  }

  /** The geofences applying to the device: its own links and those of its group chain. */
  forDevice(deviceId: number, device: DeviceSettingsSource): readonly CachedGeofence[] {
    const groupId = device.json.groupId;
    const hit = this.memo.get(deviceId);
    if (hit && hit.groupId === groupId) return hit.list;
    const { geofences, byDevice, byGroup, groupParent } = this.snap;
    const ids = new Set<number>(byDevice.get(deviceId) ?? []);
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
    const kept = list.length > 0 ? list.sort((a, b) => a.id - b.id) : EMPTY;
    this.memo.set(deviceId, { groupId, list: kept });
    return kept;
  }

  /** Ids of the device's geofences containing the position (ascending), or null for none. */
  containing(deviceId: number, device: DeviceSettingsSource, position: PositionDraft): number[] | null {
    const list = this.forDevice(deviceId, device);
    if (list.length === 0) return null;
    let ids: number[] | null = null;
    for (const g of list) {
      if (geofenceContains(g, position.latitude, position.longitude, position.altitude)) (ids ??= []).push(g.id);
    }
    return ids;
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
