// /api/users: a manager (a reseller too) sees and changes the users of its whole tree, at any
// depth, and creates users under itself; nobody raises their own privileges, deletes
// themselves or touches a superior administrator; readonly accounts change nothing but their
// push tokens; shared visitors and QR drivers have no users screen at all.
import { NO, OK, SIGNED_OUT, ids, keys, none, objectId, type Expect } from '../roles.ts';
import { everyUser, treeOf } from '../model.ts';
import type { CaseEnv, Row } from '../table.ts';
import type { Person, World } from '../world.ts';

let serial = 0;
const self = (key: keyof World['user']) => objectId((w) => w.user[key]);

/** Puts a user's name and attributes back as the fixture made them. */
function restoreUser(env: CaseEnv, who: Person): void {
  env.after(() => env.admin.put(`/api/users/${env.w.user[who]}`, { id: env.w.user[who], name: env.w.name[who], attributes: env.w.attributes[who] }));
}

/** Who may change a user of C's tree (its employee): its managers at every level and administrators. */
const TREE_OF_CUSTOMER = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: NO, readonly: NO, deviceReadonly: NO,
  limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
} as const;

const EVERYONE_REFUSED = {
  admin: NO, admin2: NO, reseller: NO, subReseller: NO, customer: NO, unrelated: NO, readonly: NO, deviceReadonly: NO,
  limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
} as const;

/** Each role changing its own record: refused to readonly accounts, visitors and QR drivers. */
const OWN_RECORD: Expect = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: OK, readonly: NO, deviceReadonly: OK,
  limitCommands: OK, shared: NO, driver: NO, ...SIGNED_OUT,
};

/** Users of the fixture who have devices (device counts leave out users with none). */
const withDevices = (...who: Person[]) => (w: World) => who.map((p) => w.user[p]);
const TREE_R: Person[] = ['subReseller', 'customer', 'readonly', 'driver', 'deviceReadonly', 'limitCommands', 'disabled', 'expired'];
const TREE_S: Person[] = ['customer', 'readonly', 'driver', 'disabled', 'expired'];
const TREE_C: Person[] = ['readonly', 'driver'];

export const usersRows: Row[] = [
  {
    route: 'GET /tarkan/users/device-counts',
    variant: "device counts of the caller and its tree (the users manager's column)",
    request: () => ({ path: '/tarkan/users/device-counts' }),
    expect: {
      // Administrators: everyone with a device (the second administrator and C's employee have none).
      admin: keys(withDevices('admin', 'reseller', ...TREE_R, 'unrelated', 'shared')),
      admin2: keys(withDevices('admin', 'reseller', ...TREE_R, 'unrelated', 'shared')),
      reseller: keys(withDevices('reseller', ...TREE_R)),
      subReseller: keys(withDevices('subReseller', ...TREE_S)),
      customer: keys(withDevices('customer', ...TREE_C)),
      unrelated: NO, readonly: NO, deviceReadonly: NO, limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/users',
    variant: 'the users list: administrators all, a manager its whole tree, others none',
    request: () => ({ path: '/api/users' }),
    expect: {
      admin: ids(everyUser), admin2: ids(everyUser), reseller: ids(treeOf('reseller')), subReseller: ids(treeOf('subReseller')),
      customer: ids(treeOf('customer')), unrelated: ids(none), readonly: ids(none), deviceReadonly: ids(none), limitCommands: ids(none),
      shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/users',
    variant: "?userId=C: the users C manages (its tree), for those who manage C",
    request: ({ w }) => ({ path: `/api/users?userId=${w.user.customer}` }),
    expect: {
      admin: ids(treeOf('customer')), admin2: ids(treeOf('customer')), reseller: ids(treeOf('customer')), subReseller: ids(treeOf('customer')),
      customer: ids(treeOf('customer')), unrelated: NO, readonly: NO, deviceReadonly: NO, limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/users',
    variant: "?deviceId=<C's first vehicle>: its users, as far as the caller manages them (managers only)",
    request: ({ w }) => ({ path: `/api/users?deviceId=${w.device.customer1}` }),
    expect: {
      // Linked to that vehicle: the administrator (its creator), C, C's readonly operator, the visitor.
      admin: ids((w) => [w.user.admin, w.user.customer, w.user.readonly, w.user.shared]),
      admin2: ids((w) => [w.user.admin, w.user.customer, w.user.readonly, w.user.shared]),
      reseller: ids((w) => [w.user.customer, w.user.readonly]),
      subReseller: ids((w) => [w.user.customer, w.user.readonly]),
      customer: ids((w) => [w.user.customer, w.user.readonly]),
      unrelated: NO, readonly: NO, deviceReadonly: NO, limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'GET /api/users/:id',
    variant: "C's employee (three levels below the reseller)",
    request: ({ w }) => ({ path: `/api/users/${w.user.staff}` }),
    expect: TREE_OF_CUSTOMER,
  },
  {
    route: 'GET /api/users/:id',
    variant: 'its own record',
    request: ({ self }) => ({ path: `/api/users/${self ?? 1}` }),
    expect: {
      admin: self('admin'), admin2: self('admin2'), reseller: self('reseller'), subReseller: self('subReseller'), customer: self('customer'),
      unrelated: self('unrelated'), readonly: self('readonly'), deviceReadonly: self('deviceReadonly'), limitCommands: self('limitCommands'),
      // The same record GET /api/session answers.
      shared: self('shared'), driver: self('driver'), ...SIGNED_OUT,
    },
  },
  {
    route: 'POST /api/users',
    variant: 'creating a plain customer (managers under themselves; registration is off)',
    request: ({ createsAt }) => {
      createsAt('/api/users');
      serial++;
      return { path: '/api/users', body: { name: `Authz new ${serial}`, email: `authz-new-${serial}-${Date.now()}@authz.test`, password: 'new-pass' } };
    },
    expect: {
      admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: NO, shared: NO, driver: NO,
      // Public route (registration): failed Basic credentials are refused; a refused session counts as none.
      disabled: 401, expired: NO, anonymous: NO,
    },
  },
  {
    route: 'POST /api/users',
    variant: 'creating an administrator (nobody creates a user above themselves)',
    request: ({ createsAt }) => {
      createsAt('/api/users');
      serial++;
      return { path: '/api/users', body: { name: `Authz admin ${serial}`, email: `authz-admin-${serial}-${Date.now()}@authz.test`, password: 'new-pass', administrator: true } };
    },
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK, disabled: 401, expired: NO, anonymous: NO },
  },
  {
    route: 'POST /api/users',
    variant: 'creating a reseller (only a reseller allowed sub-resellers)',
    request: ({ createsAt }) => {
      createsAt('/api/users');
      serial++;
      return {
        path: '/api/users',
        body: { name: `Authz reseller ${serial}`, email: `authz-res-${serial}-${Date.now()}@authz.test`, password: 'new-pass', attributes: { 'tarkan.reseller': true } },
      };
    },
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK, reseller: OK, disabled: 401, expired: NO, anonymous: NO },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'renaming itself',
    request: (env) => {
      const who = env.role === 'anonymous' ? 'admin' : env.role;
      restoreUser(env, who);
      return { path: `/api/users/${env.w.user[who]}`, body: { id: env.w.user[who], name: `${env.w.name[who]} renamed` } };
    },
    expect: OWN_RECORD,
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'registering a push token on itself (what a readonly account may still change)',
    request: (env) => {
      const who = env.role === 'anonymous' ? 'admin' : env.role;
      restoreUser(env, who);
      return { path: `/api/users/${env.w.user[who]}`, body: { id: env.w.user[who], attributes: { ...env.w.attributes[who], notificationTokens: 'authz-push-token' } } };
    },
    expect: { ...OWN_RECORD, readonly: OK },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'making itself an administrator',
    request: (env) => {
      const who = env.role === 'anonymous' ? 'admin' : env.role;
      env.after(() => env.admin.put(`/api/users/${env.w.user[who]}`, { id: env.w.user[who], administrator: who === 'admin' || who === 'admin2' }));
      return { path: `/api/users/${env.w.user[who]}`, body: { id: env.w.user[who], administrator: true } };
    },
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'raising its own user limit',
    request: (env) => {
      const who = env.role === 'anonymous' ? 'admin' : env.role;
      env.after(() => env.admin.put(`/api/users/${env.w.user[who]}`, { id: env.w.user[who], userLimit: env.w.userLimit[who] }));
      return { path: `/api/users/${env.w.user[who]}`, body: { id: env.w.user[who], userLimit: 1000 } };
    },
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'granting itself every advanced permission',
    request: (env) => {
      const who = env.role === 'anonymous' ? 'admin' : env.role;
      restoreUser(env, who);
      return { path: `/api/users/${env.w.user[who]}`, body: { id: env.w.user[who], attributes: { ...env.w.attributes[who], 'tarkan.advancedPerms': 'F'.repeat(32) } } };
    },
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK },
  },
  {
    route: 'PUT /api/users/:id',
    variant: "renaming C's employee",
    request: (env) => {
      restoreUser(env, 'staff');
      return { path: `/api/users/${env.w.user.staff}`, body: { id: env.w.user.staff, name: 'Authz staff renamed' } };
    },
    expect: TREE_OF_CUSTOMER,
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'making C a reseller (only a reseller allowed sub-resellers, above C)',
    request: (env) => {
      restoreUser(env, 'customer');
      return { path: `/api/users/${env.w.user.customer}`, body: { id: env.w.user.customer, attributes: { ...env.w.attributes.customer, 'tarkan.reseller': true } } };
    },
    expect: { ...TREE_OF_CUSTOMER, subReseller: NO, customer: NO },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'the first administrator, unchanged (superior to the second)',
    request: ({ w }) => ({ path: `/api/users/${w.user.admin}`, body: { id: w.user.admin, name: w.name.admin } }),
    expect: { ...EVERYONE_REFUSED, admin: OK },
  },
  {
    route: 'PUT /api/users/:id',
    variant: 'the second administrator, unchanged',
    request: ({ w }) => ({ path: `/api/users/${w.user.admin2}`, body: { id: w.user.admin2, name: w.name.admin2 } }),
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK },
  },
  {
    route: 'DELETE /api/users/:id',
    variant: "a new user of C's tree",
    request: async ({ scratch }) => ({ path: `/api/users/${await scratch.user({}, 'customer')}` }),
    expect: TREE_OF_CUSTOMER,
  },
  {
    route: 'DELETE /api/users/:id',
    variant: 'itself (nobody deletes themselves)',
    request: ({ self }) => ({ path: `/api/users/${self ?? 1}` }),
    expect: EVERYONE_REFUSED,
    nobodyPasses: 'nobody may delete their own account',
  },
  {
    route: 'DELETE /api/users/:id',
    variant: 'an administrator newer than both administrators',
    request: async ({ scratch }) => ({ path: `/api/users/${await scratch.user({ administrator: true }, null)}` }),
    expect: { ...EVERYONE_REFUSED, admin: OK, admin2: OK },
  },
];
