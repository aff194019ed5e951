// Copy attributes (Traccar's CopyAttributesHandler, step 15 of reference A.9): the attributes
// listed in `processing.copyAttributes` that a position lacks are copied from the device's
// previous position. Trackers report some state only in some packets — a GT06 unit the engine
// cut (`blocked`) in its status packets, never in its location packets — and without the copy
// the latest position would lose it: the map would show a locked vehicle as unlocked until the
// next status packet. The copied value is the last one the device reported, so a later report
// of the state replaces it.
import type { AttributeLookup } from '../../events/attribute-lookup.ts';
import { CONFIG_KEY_DEFAULTS } from '../../events/config-keys.ts';
import type { DeviceEntry } from '../device-cache.ts';
import type { Step } from '../work.ts';

export const COPY_ATTRIBUTES_KEY = 'processing.copyAttributes';

/**
 * The attribute names of a setting: separated by commas or spaces, as Traccar splits them.
 * `none` turns the copy off (an empty setting means "not set" and gives the default).
 */
export function parseCopyList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const names = String(value).split(/[\s,]+/).filter((name) => name !== '');
  return names.length === 1 && names[0]!.toLowerCase() === 'none' ? [] : names;
}

export type CopyListOf = (entry: DeviceEntry) => readonly string[];

const DEFAULT_LIST = parseCopyList(CONFIG_KEY_DEFAULTS[COPY_ATTRIBUTES_KEY]);

/**
 * The list for a device: its attribute or its groups', else RASTRO_PROCESSING_COPY_ATTRIBUTES,
 * else `blocked` (Traccar's key is read from the device and the configuration, not the server).
 * Cached per device until its attributes or the groups change: the step asks on every message.
 */
export function copyList(lookup?: AttributeLookup): CopyListOf {
  if (!lookup) return () => DEFAULT_LIST;
  const cache = new WeakMap<DeviceEntry, { json: DeviceEntry['json']; version: number; list: readonly string[] }>();
  return (entry) => {
    let hit = cache.get(entry);
    if (!hit || hit.json !== entry.json || hit.version !== lookup.version) {
      const value = lookup.get(entry, COPY_ATTRIBUTES_KEY, { server: false });
      hit = { json: entry.json, version: lookup.version, list: value === undefined ? DEFAULT_LIST : parseCopyList(value) };
      cache.set(entry, hit);
    }
    return hit.list;
  };
}

export function copyAttributesStep(listOf: CopyListOf): Step {
  return {
    name: 'copy-attributes',
    run(work) {
      const previous = work.previous?.attributes;
      if (!previous) return;
      const attributes = work.position.attributes;
      for (const name of listOf(work.entry)) {
        if (attributes[name] === undefined && previous[name] !== undefined) attributes[name] = previous[name];
      }
    },
  };
}
