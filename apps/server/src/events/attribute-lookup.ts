// Per-device settings, looked up the way Traccar does (reference A.3 "Group"): device
// attribute -> its group -> parent groups (3 levels; `deviceInactivity*` walk the whole
// chain) -> server attribute (only keys Traccar types SERVER) -> configuration
// (RASTRO_* variables, config-keys.ts) -> built-in default.
//
// ANNOUNCEMENT for other steps (motion, filters…): use `attributeLookup(ctx)` — one started
// instance per server, groups and server attributes held in memory and refreshed from
// ctx.changes ('group', 'server'); device attributes come from the DeviceCache entry (parsed
// once per load). A lookup is a few Map reads: safe on the per-message path. Example:
//   const lookup = attributeLookup(ctx);
//   const minDuration = lookup.number(entry, 'report.trip.minDuration'); // seconds
import type { AppContext } from '../context.ts';
import { CONFIG_KEY_DEFAULTS, type ConfigValue } from './config-keys.ts';

/** What a lookup needs of a device: its own attributes and group (a DeviceEntry's `json` has both). */
export interface DeviceSettingsSource {
  json: { attributes: Record<string, unknown>; groupId: number | null };
}

export interface LookupOptions {
  /** Also read server attributes (Traccar: keys typed SERVER). Default: see SERVER_KEYS. */
  server?: boolean;
  /** Group levels to walk (default 3; Infinity for the whole chain). */
  groupLevels?: number;
}

/** Device keys Traccar also reads from the server's attributes. */
export const SERVER_KEYS = new Set(['speedLimit', 'fuelDropThreshold', 'fuelIncreaseThreshold']);

/** Built-in defaults of device-scoped keys (reference appendix D), besides the config keys. */
const DEVICE_DEFAULTS: Record<string, ConfigValue> = {
  speedLimit: 0,
  fuelDropThreshold: 0,
  fuelIncreaseThreshold: 0,
  deviceInactivityStart: 0,
  deviceInactivityPeriod: 0,
};

interface GroupNode {
  parentId: number | null;
  attributes: Record<string, unknown>;
}

function parseAttributes(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Numbers may arrive as text from forms ("80"); booleans as "true"/"false". */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

export class AttributeLookup {
  private groups = new Map<number, GroupNode>();
  private serverAttributes: Record<string, unknown> = {};
  private unsubscribe: (() => void) | null = null;
  /** Bumped whenever groups or server attributes change: callers caching derived values compare it. */
  version = 0;
  private started: Promise<void> | null = null;
  /** Reloads in flight (tests await `settled()` after a change). */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly ctx: Pick<AppContext, 'storage' | 'changes' | 'log'>,
    private readonly configKeys: Record<string, ConfigValue> = {},
  ) {}

  /** Loads groups and server attributes and follows changes; idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unsubscribe = this.ctx.changes.on((change) => {
        if (change.kind === 'group') this.track(this.loadGroups());
        else if (change.kind === 'server') this.track(this.loadServer());
      });
      await Promise.all([this.loadGroups(), this.loadServer()]);
    })();
    return this.started;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** For tests and callers without a database: set the data directly. */
  load(groups: Array<{ id: number; groupId: number | null; attributes: Record<string, unknown> }>, serverAttributes: Record<string, unknown>): void {
    this.groups = new Map(groups.map((g) => [g.id, { parentId: g.groupId, attributes: g.attributes }]));
    this.serverAttributes = serverAttributes;
    this.version++;
  }

  /**
   * The raw value of `key` for the device: device, groups, server (when allowed), config —
   * undefined when none sets it (the caller applies the default).
   */
  get(device: DeviceSettingsSource, key: string, options?: LookupOptions): unknown {
    const own = device.json.attributes[key];
    if (own !== undefined && own !== null && own !== '') return own;
    const levels = options?.groupLevels ?? 3;
    let groupId = device.json.groupId;
    for (let level = 0; groupId && level < levels; level++) {
      const group = this.groups.get(groupId);
      if (!group) break;
      const v = group.attributes[key];
      if (v !== undefined && v !== null && v !== '') return v;
      groupId = group.parentId;
      if (level > 64) break; // a cycle in bad data
    }
    if (options?.server ?? SERVER_KEYS.has(key)) {
      const v = this.serverAttributes[key];
      if (v !== undefined && v !== null && v !== '') return v;
    }
    return this.configKeys[key];
  }

  number(device: DeviceSettingsSource, key: string, options?: LookupOptions & { fallback?: number }): number {
    const v = asNumber(this.get(device, key, options));
    if (v !== undefined) return v;
    return options?.fallback ?? (asNumber(defaultOf(key)) ?? 0);
  }

  boolean(device: DeviceSettingsSource, key: string, options?: LookupOptions & { fallback?: boolean }): boolean {
    const v = asBoolean(this.get(device, key, options));
    if (v !== undefined) return v;
    return options?.fallback ?? (asBoolean(defaultOf(key)) ?? false);
  }

  /** A configuration key alone (no device): config value or built-in default. */
  config<T extends ConfigValue>(key: string, fallback?: T): T {
    const v = this.configKeys[key];
    const d = fallback ?? (defaultOf(key) as T);
    return (typeof v === typeof d ? v : d) as T;
  }

  private track(promise: Promise<void>): void {
    this.pending.add(promise);
    void promise
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'attribute lookup reload failed'))
      .finally(() => this.pending.delete(promise));
  }

  private async loadGroups(): Promise<void> {
    const rows = await this.ctx.storage.db.selectFrom('groups').select(['id', 'groupId', 'attributes']).execute();
    const groups = new Map<number, GroupNode>();
    for (const r of rows) {
      groups.set(Number(r.id), { parentId: r.groupId === null ? null : Number(r.groupId), attributes: parseAttributes(r.attributes) });
    }
    this.groups = groups;
    this.version++;
  }

  private async loadServer(): Promise<void> {
    const row = await this.ctx.storage.db.selectFrom('server').select('attributes').orderBy('id').executeTakeFirst();
    this.serverAttributes = parseAttributes(row?.attributes);
    this.version++;
  }
}

function defaultOf(key: string): ConfigValue | undefined {
  return (CONFIG_KEY_DEFAULTS as Record<string, ConfigValue>)[key] ?? DEVICE_DEFAULTS[key];
}

const instances = new WeakMap<AppContext, AttributeLookup>();

/** The server's lookup (created on first use; `start()` it before relying on group/server values). */
export function attributeLookup(ctx: AppContext): AttributeLookup {
  let lookup = instances.get(ctx);
  if (!lookup) instances.set(ctx, (lookup = new AttributeLookup(ctx, ctx.config.keys)));
  return lookup;
}
