// What each role may see in the fixture world, as the product rules say it should be — the
// expected answers of the list rows. Traccar's model plus ours: a manager (a reseller too)
// reaches the users of its whole tree at any depth and the devices and groups of every user in
// it; other objects (geofences, notifications, ...) are reached through a direct link, and a
// manager lists those of a user in its tree with `?userId=`; administrators reach everything,
// but list only what is linked to them unless they ask `all=true`.
import type { Ids } from './roles.ts';
import type { DeviceKey, EntityKind, Person } from './world.ts';

const devicesOf: Record<Exclude<Person, 'admin' | 'admin2' | 'staff'>, DeviceKey[]> = {
  reseller: ['reseller', 'subReseller', 'customer1', 'customer2', 'deviceReadonly', 'limitCommands', 'disabled', 'expired'],
  subReseller: ['subReseller', 'customer1', 'customer2', 'disabled', 'expired'],
  customer: ['customer1', 'customer2'],
  unrelated: ['unrelated'],
  readonly: ['customer1'],
  deviceReadonly: ['deviceReadonly'],
  limitCommands: ['limitCommands'],
  disabled: ['disabled'],
  expired: ['expired'],
  shared: ['customer1'],
  driver: ['customer2'],
};

/** Devices a non-administrator sees (directly, through groups, through its tree). */
export const seesDevices = (who: keyof typeof devicesOf): Ids => (w) => devicesOf[who].map((k) => w.device[k]);

/** Devices an administrator sees: all of them. */
export const everyDevice: Ids = (w) => w.all.device;

/** Devices by key. */
export const devices = (...keys: DeviceKey[]): Ids => (w) => keys.map((k) => w.device[k]);

/** Groups a non-administrator sees. */
export const seesGroups = (who: 'reseller' | 'subReseller' | 'customer' | 'unrelated'): Ids => (w) =>
  ({ reseller: [w.group.reseller, w.group.customer], subReseller: [w.group.customer], customer: [w.group.customer], unrelated: [w.group.unrelated] })[who];

/** The users of a manager's tree, at any depth (what its users list holds). */
export const treeOf = (who: 'reseller' | 'subReseller' | 'customer'): Ids => (w) => {
  const u = w.user;
  const customer = [u.staff, u.readonly, u.driver];
  const sub = [u.customer, ...customer, u.disabled, u.expired];
  return { customer, subReseller: sub, reseller: [u.subReseller, ...sub, u.deviceReadonly, u.limitCommands] }[who];
};

export const everyUser: Ids = (w) => w.all.user;

/** Objects of a kind linked to a role (the default list of a non-administrator). */
export const linkedEntities = (kind: EntityKind, who: Person): Ids => (w) => {
  const e = w.entity[kind];
  switch (who) {
    case 'admin':
      return w.all[kind]; // its creator
    case 'reseller':
      return [e.reseller];
    case 'customer':
      return [e.customer];
    case 'unrelated':
      return [e.unrelated];
    case 'readonly':
      return kind === 'geofence' ? [e.customer] : [];
    case 'limitCommands':
      return kind === 'command' ? [w.entity.command.limitCommands] : [];
    default:
      return [];
  }
};

export const everyEntity = (kind: EntityKind): Ids => (w) => w.all[kind];
