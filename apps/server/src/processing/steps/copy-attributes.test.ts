import { describe, expect, it } from 'vitest';
import { emptyFix } from '../../ingest/decoded.ts';
import { AttributeLookup } from '../../events/attribute-lookup.ts';
import { parseConfigKeys } from '../../events/config-keys.ts';
import { Changes } from '../../realtime/changes.ts';
import { draftFromFix, type PositionDraft } from '../position-draft.ts';
import type { DeviceEntry } from '../device-cache.ts';
import type { Work } from '../work.ts';
import { defaultSteps } from './index.ts';
import { copyAttributesStep, copyList, parseCopyList } from './copy-attributes.ts';

const NOW = 1_700_000_000_000;

function pos(attributes: Record<string, unknown>): PositionDraft {
  return { ...draftFromFix(emptyFix('gt06', NOW), 1, NOW), attributes };
}

function entry(attributes: Record<string, unknown> = {}, groupId: number | null = null): DeviceEntry {
  return { json: { attributes, groupId } } as unknown as DeviceEntry;
}

function work(position: PositionDraft, previous: PositionDraft | null, device = entry()): Work {
  return { entry: device, position, previous, latest: true, events: [], dropped: null, now: NOW };
}

function lookup(env: Record<string, string> = {}, groups: Array<{ id: number; groupId: number | null; attributes: Record<string, unknown> }> = []): AttributeLookup {
  const keys = parseConfigKeys(env);
  if ('error' in keys) throw new Error(keys.error);
  const l = new AttributeLookup({ changes: new Changes() } as unknown as ConstructorParameters<typeof AttributeLookup>[0], keys.values);
  l.load(groups, {});
  return l;
}

describe('copy attributes (processing.copyAttributes)', () => {
  it('a GT06 location packet without the lock state keeps the one of the previous status packet (default: blocked)', () => {
    const step = copyAttributesStep(copyList());
    const status = pos({ blocked: true, ignition: false, batteryLevel: 83 });
    const location = work(pos({ sat: 10, ignition: true }), status);
    step.run(location);
    // Only the listed attributes are copied, and only those the position lacks.
    expect(location.position.attributes).toEqual({ sat: 10, ignition: true, blocked: true });
    const unlocked = work(pos({ blocked: false }), status);
    step.run(unlocked);
    expect(unlocked.position.attributes.blocked).toBe(false);
    const first = work(pos({ sat: 4 }), null);
    step.run(first);
    expect(first.position.attributes).toEqual({ sat: 4 });
  });

  it('runs in the default pipeline, after motion and before engine hours (Traccar A.9)', () => {
    const names = defaultSteps().map((s) => s.name);
    expect(names).toContain('copy-attributes');
    expect(names.indexOf('copy-attributes')).toBe(names.indexOf('motion') + 1);
    expect(names.indexOf('copy-attributes')).toBeLessThan(names.indexOf('engine-hours'));
  });

  it('the list: RASTRO_PROCESSING_COPY_ATTRIBUTES, a device or group attribute over it; `none` copies nothing', () => {
    expect(parseCopyList('blocked, fuel  door,')).toEqual(['blocked', 'fuel', 'door']);
    const previous = pos({ blocked: true, fuel: 40, door: false });
    const copied = (l: AttributeLookup, device = entry()) => {
      const w = work(pos({}), previous, device);
      copyAttributesStep(copyList(l)).run(w);
      return w.position.attributes;
    };
    expect(copied(lookup())).toEqual({ blocked: true });
    expect(copied(lookup({ RASTRO_PROCESSING_COPY_ATTRIBUTES: 'fuel,door' }))).toEqual({ fuel: 40, door: false });
    // Empty counts as unset, as for every variable: the default.
    expect(copied(lookup({ RASTRO_PROCESSING_COPY_ATTRIBUTES: ' ' }))).toEqual({ blocked: true });
    expect(copied(lookup({ RASTRO_PROCESSING_COPY_ATTRIBUTES: 'none' }))).toEqual({});
    expect(copied(lookup({ RASTRO_PROCESSING_COPY_ATTRIBUTES: 'fuel' }), entry({ 'processing.copyAttributes': 'None' }))).toEqual({});
    expect(copied(lookup(), entry({ 'processing.copyAttributes': 'fuel blocked' }))).toEqual({ fuel: 40, blocked: true });
    const grouped = lookup({}, [{ id: 7, groupId: null, attributes: { 'processing.copyAttributes': 'door' } }]);
    expect(copied(grouped, entry({}, 7))).toEqual({ door: false });
  });

  it('follows a change of the device attributes (the list is cached per device)', () => {
    const l = lookup();
    const listOf = copyList(l);
    const device = entry();
    expect(listOf(device)).toEqual(['blocked']);
    device.json = { ...device.json, attributes: { 'processing.copyAttributes': 'fuel' } };
    expect(listOf(device)).toEqual(['fuel']);
  });
});
