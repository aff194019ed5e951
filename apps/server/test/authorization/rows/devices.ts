// /api/devices and /api/groups: seen through direct links, groups and the manager's tree;
// changed by whoever sees them unless readonly (devices: deviceReadonly too); the share visitor
// reads only its vehicle, the QR driver has no device screens.
import { NO, OK, SIGNED_OUT, ids, none } from '../roles.ts';
import { devices, everyDevice, seesDevices, seesGroups } from '../model.ts';
import { personOf, type Row } from '../table.ts';
import { CUSTOMER_TREE, OWN_DEVICE_WRITERS, OWN_WRITERS, SEE_CUSTOMER1 } from './common.ts';

let serial = 0;

const deviceList = {
  reseller: ids(seesDevices('reseller')), subReseller: ids(seesDevices('subReseller')), customer: ids(seesDevices('customer')),
  unrelated: ids(seesDevices('unrelated')), readonly: ids(seesDevices('readonly')), deviceReadonly: ids(seesDevices('deviceReadonly')),
  limitCommands: ids(seesDevices('limitCommands')), shared: ids(seesDevices('shared')),
  // The QR driver's screen names the vehicle it is checked in to (GET /api/devices?id=).
  driver: ids(seesDevices('driver')), ...SIGNED_OUT,
} as const;

const groupList = {
  reseller: ids(seesGroups('reseller')), subReseller: ids(seesGroups('subReseller')), customer: ids(seesGroups('customer')),
  unrelated: ids(seesGroups('unrelated')), readonly: ids(none), deviceReadonly: ids(none), limitCommands: ids(none),
  shared: NO, driver: NO, ...SIGNED_OUT,
} as const;

const justC = ids((w) => [w.group.customer]);
const justC1 = ids(devices('customer1'));

export const devicesRows: Row[] = [
  {
    route: 'GET /api/devices',
    variant: 'the device list (administrators: those linked to them)',
    request: () => ({ path: '/api/devices' }),
    expect: { admin: ids(everyDevice), admin2: ids(none), ...deviceList },
  },
  {
    route: 'GET /api/devices',
    variant: '?all=true (administrators: every device)',
    request: () => ({ path: '/api/devices?all=true' }),
    expect: { admin: ids(everyDevice), admin2: ids(everyDevice), ...deviceList },
  },
  {
    route: 'GET /api/devices',
    variant: "?userId=C: the devices linked to C, for those who manage C",
    request: ({ w }) => ({ path: `/api/devices?userId=${w.user.customer}` }),
    expect: { ...CUSTOMER_TREE, admin: justC1, admin2: justC1, reseller: justC1, subReseller: justC1, customer: justC1 },
  },
  {
    route: 'GET /api/devices',
    variant: "?id=<C's first vehicle>&id=<U's vehicle>: exact lookup within what the caller sees",
    request: ({ w }) => ({ path: `/api/devices?id=${w.device.customer1}&id=${w.device.unrelated}` }),
    expect: {
      admin: ids(devices('customer1', 'unrelated')), admin2: ids(devices('customer1', 'unrelated')), reseller: justC1, subReseller: justC1,
      customer: justC1, unrelated: ids(devices('unrelated')), readonly: justC1, deviceReadonly: ids(none), limitCommands: ids(none),
      shared: justC1, driver: ids(none), ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/devices/:id',
    variant: "C's first vehicle (linked to C, its operator and the visitor)",
    request: ({ w }) => ({ path: `/api/devices/${w.device.customer1}` }),
    expect: SEE_CUSTOMER1,
  },
  {
    route: 'GET /api/devices/:id',
    variant: "C's second vehicle (in C's group; the QR driver's vehicle)",
    request: ({ w }) => ({ path: `/api/devices/${w.device.customer2}` }),
    expect: { ...CUSTOMER_TREE, driver: OK },
  },
  {
    route: 'POST /api/devices',
    variant: 'adding a device of its own',
    request: ({ createsAt }) => {
      createsAt('/api/devices');
      return { path: '/api/devices', body: { name: 'Authz new device', uniqueId: `authz-new-${++serial}-${Date.now()}` } };
    },
    expect: OWN_DEVICE_WRITERS,
  },
  {
    route: 'PUT /api/devices/:id',
    variant: 'renaming a device of its own',
    request: async ({ scratch, role }) => {
      const id = await scratch.device(personOf(role));
      return { path: `/api/devices/${id}`, body: { id, name: 'Authz renamed' } };
    },
    expect: OWN_DEVICE_WRITERS,
  },
  {
    route: 'PUT /api/devices/:id',
    variant: "renaming a device of C",
    request: async ({ scratch }) => {
      const id = await scratch.device('customer');
      return { path: `/api/devices/${id}`, body: { id, name: 'Authz renamed' } };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'DELETE /api/devices/:id',
    variant: 'deleting a device of its own',
    request: async ({ scratch, role }) => ({ path: `/api/devices/${await scratch.device(personOf(role))}` }),
    expect: OWN_DEVICE_WRITERS,
  },
  {
    route: 'DELETE /api/devices/:id',
    variant: 'deleting a device of C',
    request: async ({ scratch }) => ({ path: `/api/devices/${await scratch.device('customer')}` }),
    expect: CUSTOMER_TREE,
  },
  {
    route: 'PUT /api/devices/:id/accumulators',
    variant: 'setting the odometer of a device of its own',
    request: async ({ scratch, role }) => {
      const id = await scratch.device(personOf(role), { position: true });
      return { path: `/api/devices/${id}/accumulators`, body: { deviceId: id, totalDistance: 123_000 } };
    },
    expect: OWN_DEVICE_WRITERS,
  },
  {
    route: 'PUT /api/devices/:id/accumulators',
    variant: 'setting the odometer of a device of C',
    request: async ({ scratch }) => {
      const id = await scratch.device('customer', { position: true });
      return { path: `/api/devices/${id}/accumulators`, body: { deviceId: id, totalDistance: 123_000 } };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'GET /api/devices/:id/clock',
    variant: "the clock check of C's first vehicle",
    request: ({ w }) => ({ path: `/api/devices/${w.device.customer1}/clock` }),
    expect: SEE_CUSTOMER1,
  },
];

export const groupsRows: Row[] = [
  {
    route: 'GET /api/groups',
    variant: 'the group list (administrators: those linked to them)',
    request: () => ({ path: '/api/groups' }),
    expect: { admin: ids((w) => w.all.group), admin2: ids(none), ...groupList },
  },
  {
    route: 'GET /api/groups',
    variant: '?all=true (administrators: every group)',
    request: () => ({ path: '/api/groups?all=true' }),
    expect: { admin: ids((w) => w.all.group), admin2: ids((w) => w.all.group), ...groupList },
  },
  {
    route: 'GET /api/groups',
    variant: '?userId=C: the groups C sees, for those who manage C',
    request: ({ w }) => ({ path: `/api/groups?userId=${w.user.customer}` }),
    expect: { ...CUSTOMER_TREE, admin: justC, admin2: justC, reseller: justC, subReseller: justC, customer: justC },
  },
  {
    route: 'GET /api/groups/:id',
    variant: "C's group",
    request: ({ w }) => ({ path: `/api/groups/${w.group.customer}` }),
    expect: CUSTOMER_TREE,
  },
  {
    route: 'POST /api/groups',
    variant: 'adding a group of its own',
    request: ({ createsAt }) => {
      createsAt('/api/groups');
      return { path: '/api/groups', body: { name: `Authz new group ${++serial}` } };
    },
    expect: OWN_WRITERS,
  },
  {
    route: 'PUT /api/groups/:id',
    variant: 'renaming a group of its own',
    request: async ({ scratch, role }) => {
      const id = await scratch.group(personOf(role));
      return { path: `/api/groups/${id}`, body: { id, name: 'Authz renamed group' } };
    },
    expect: OWN_WRITERS,
  },
  {
    route: 'PUT /api/groups/:id',
    variant: 'renaming a group of C',
    request: async ({ scratch }) => {
      const id = await scratch.group('customer');
      return { path: `/api/groups/${id}`, body: { id, name: 'Authz renamed group' } };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'DELETE /api/groups/:id',
    variant: 'deleting a group of its own',
    request: async ({ scratch, role }) => ({ path: `/api/groups/${await scratch.group(personOf(role))}` }),
    expect: OWN_WRITERS,
  },
  {
    route: 'DELETE /api/groups/:id',
    variant: 'deleting a group of C',
    request: async ({ scratch }) => ({ path: `/api/groups/${await scratch.group('customer')}` }),
    expect: CUSTOMER_TREE,
  },
];
