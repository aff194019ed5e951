// The advanced permission editor's tree (tarkan-reference §5.1): each area switch with the
// action switches nested under it, read off PERMISSION_BITS (an action is named after its
// area: devicesLock under devices), plus the standalone self-edit bit. Turning an area off
// clears its actions, so no action bit outlives the area it belongs to.
import { PERMISSION_BITS, type PermissionName } from '@rastro/domain/permissions';

export interface PermissionArea {
  name: PermissionName;
  bit: number;
  actions: Array<{ name: PermissionName; bit: number; /** label key part: create, lock, route… */ action: string }>;
}

/** Areas in the reference's order (reseller bits 104/105 grant nothing here: resellers are attributes). */
export const AREA_NAMES = [
  'devices', 'users', 'share', 'notifications', 'events', 'geofences', 'groups', 'commands', 'computedAttributes', 'reports',
  'drivers', 'calendars', 'maintenance',
] as const satisfies readonly PermissionName[];

export const PERMISSION_TREE: readonly PermissionArea[] = AREA_NAMES.map((area) => ({
  name: area,
  bit: PERMISSION_BITS[area],
  actions: (Object.entries(PERMISSION_BITS) as Array<[PermissionName, number]>)
    .filter(([name]) => name.startsWith(area) && /^[A-Z]/.test(name.slice(area.length)))
    .map(([name, bit]) => ({ name, bit, action: name.slice(area.length, area.length + 1).toLowerCase() + name.slice(area.length + 1) })),
}));

/** Every bit the editor shows: self-edit, the areas and their actions. */
export const EDITABLE_BITS: readonly number[] = [
  PERMISSION_BITS.selfEdit,
  ...PERMISSION_TREE.flatMap((area) => [area.bit, ...area.actions.map((a) => a.bit)]),
];

/** The flags of a user who has none stored: every switch on (such a user may do everything, spec §6). */
export function allGranted(): boolean[] {
  const flags = Array<boolean>(128).fill(false);
  for (const bit of EDITABLE_BITS) flags[bit] = true;
  return flags;
}

/** The flags with one switch changed; an area turned off takes its actions with it. */
export function toggle(flags: readonly boolean[], bit: number, on: boolean): boolean[] {
  const next = Array.from({ length: 128 }, (_, i) => flags[i] === true);
  next[bit] = on;
  const area = PERMISSION_TREE.find((a) => a.bit === bit);
  if (area && !on) for (const action of area.actions) next[action.bit] = false;
  return next;
}
