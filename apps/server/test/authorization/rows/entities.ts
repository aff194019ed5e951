// The objects reached through a direct link to the user (Traccar's "extended" lists): geofences,
// calendars, notifications, maintenance, drivers, computed attributes and saved commands. The
// same rows for each kind — list, all=true, ?userId=C, one object, create, change and delete of
// one's own and of C's — with each kind's own writers: computed attributes only administrators
// (their expressions run on every position), saved commands not limitCommands accounts.
import { NO, OK, SIGNED_OUT, ids, none, type Expect } from '../roles.ts';
import { everyEntity, linkedEntities } from '../model.ts';
import { personOf, type Row } from '../table.ts';
import { ENTITY_KINDS, ENTITY_PATHS, type EntityKind } from '../world.ts';
import { ADMINS, CUSTOMER_ONLY, CUSTOMER_TREE, OWN_WRITERS } from './common.ts';

let serial = 0;
const ics = Buffer.from('BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nDTSTART:20240401T000000Z\nDTEND:20240402T000000Z\nEND:VEVENT\nEND:VCALENDAR\n').toString('base64');

/** A valid new object of each kind. */
const NEW: Record<EntityKind, () => Record<string, unknown>> = {
  geofence: () => ({ name: `Authz new area ${++serial}`, area: 'CIRCLE (-23.56 -46.64, 200)' }),
  calendar: () => ({ name: `Authz new calendar ${++serial}`, data: ics }),
  notification: () => ({ type: 'alarm', notificators: 'web', always: false, description: `Authz new notice ${++serial}` }),
  maintenance: () => ({ name: `Authz new service ${++serial}`, type: 'hours', start: 0, period: 3_600_000 }),
  driver: () => ({ name: `Authz new driver ${++serial}`, uniqueId: `authz-new-driver-${++serial}-${Date.now()}` }),
  computed: () => ({ description: `Authz new computed ${++serial}`, attribute: 'halved', expression: 'speed / 2', type: 'number' }),
  command: () => ({ description: `Authz new command ${++serial}`, type: 'custom', attributes: { data: 'PING#' } }),
};

/** A change of one field, as the editors send it. */
const CHANGE: Record<EntityKind, Record<string, unknown>> = {
  geofence: { name: 'Authz changed area' },
  calendar: { name: 'Authz changed calendar' },
  notification: { description: 'Authz changed notice' },
  maintenance: { name: 'Authz changed service' },
  driver: { name: 'Authz changed driver' },
  computed: { description: 'Authz changed computed' },
  command: { description: 'Authz changed command' },
};

/** Who may create, change and delete objects of their own of each kind. */
const OWN: Record<EntityKind, Expect> = {
  geofence: OWN_WRITERS,
  calendar: OWN_WRITERS,
  notification: OWN_WRITERS,
  maintenance: OWN_WRITERS,
  driver: OWN_WRITERS,
  computed: ADMINS,
  command: { ...OWN_WRITERS, limitCommands: NO },
};

/** Who may change and delete C's object of each kind. */
const OF_CUSTOMER: Record<EntityKind, Expect> = {
  geofence: CUSTOMER_ONLY,
  calendar: CUSTOMER_ONLY,
  notification: CUSTOMER_ONLY,
  maintenance: CUSTOMER_ONLY,
  driver: CUSTOMER_ONLY,
  computed: ADMINS,
  command: CUSTOMER_ONLY,
};

function rowsOf(kind: EntityKind): Row[] {
  const base = ENTITY_PATHS[kind];
  const list = {
    reseller: ids(linkedEntities(kind, 'reseller')), subReseller: ids(none), customer: ids(linkedEntities(kind, 'customer')),
    unrelated: ids(linkedEntities(kind, 'unrelated')), readonly: ids(linkedEntities(kind, 'readonly')), deviceReadonly: ids(none),
    limitCommands: ids(linkedEntities(kind, 'limitCommands')),
    // The share visitor and the QR driver have no screen for any of these kinds.
    shared: NO, driver: NO, ...SIGNED_OUT,
  } as const;
  const ofC = ids((w) => [w.entity[kind].customer]);
  return [
    {
      route: `GET ${base}`,
      variant: 'the list (administrators: those linked to them)',
      request: () => ({ path: base }),
      expect: { admin: ids(linkedEntities(kind, 'admin')), admin2: ids(none), ...list },
    },
    {
      route: `GET ${base}`,
      variant: '?all=true (administrators: every one)',
      request: () => ({ path: `${base}?all=true` }),
      expect: { admin: ids(everyEntity(kind)), admin2: ids(everyEntity(kind)), ...list },
    },
    {
      route: `GET ${base}`,
      variant: "?userId=C: C's, for those who manage C",
      request: ({ w }) => ({ path: `${base}?userId=${w.user.customer}` }),
      expect: { ...CUSTOMER_TREE, admin: ofC, admin2: ofC, reseller: ofC, subReseller: ofC, customer: ofC },
    },
    {
      route: `GET ${base}/:id`,
      variant: "C's (linked to C only)",
      request: ({ w }) => ({ path: `${base}/${w.entity[kind].customer}` }),
      // C's geofence is linked to its readonly operator too.
      expect: kind === 'geofence' ? { ...CUSTOMER_ONLY, readonly: OK } : CUSTOMER_ONLY,
    },
    {
      route: `POST ${base}`,
      variant: 'creating one of its own',
      request: ({ createsAt }) => {
        createsAt(base);
        return { path: base, body: NEW[kind]() };
      },
      expect: OWN[kind],
    },
    {
      route: `PUT ${base}/:id`,
      variant: 'changing one of its own',
      request: async ({ scratch, role }) => {
        const id = await scratch.entity(kind, personOf(role));
        return { path: `${base}/${id}`, body: { id, ...CHANGE[kind] } };
      },
      expect: OWN[kind],
    },
    {
      route: `PUT ${base}/:id`,
      variant: "changing one of C's",
      request: async ({ scratch }) => {
        const id = await scratch.entity(kind, 'customer');
        return { path: `${base}/${id}`, body: { id, ...CHANGE[kind] } };
      },
      expect: OF_CUSTOMER[kind],
    },
    {
      route: `DELETE ${base}/:id`,
      variant: 'deleting one of its own',
      request: async ({ scratch, role }) => ({ path: `${base}/${await scratch.entity(kind, personOf(role))}` }),
      expect: OWN[kind],
    },
    {
      route: `DELETE ${base}/:id`,
      variant: "deleting one of C's",
      request: async ({ scratch }) => ({ path: `${base}/${await scratch.entity(kind, 'customer')}` }),
      expect: OF_CUSTOMER[kind],
    },
  ];
}

export const entityRows: Row[] = [
  ...ENTITY_KINDS.flatMap(rowsOf),
  {
    route: 'GET /api/geofences',
    variant: "?deviceId=<C's first vehicle>: geofences linked to it, among those linked to the caller",
    request: ({ w }) => ({ path: `/api/geofences?deviceId=${w.device.customer1}` }),
    expect: {
      admin: ids((w) => [w.entity.geofence.customer]), admin2: ids(none), reseller: ids(none), subReseller: ids(none),
      customer: ids((w) => [w.entity.geofence.customer]), unrelated: NO, readonly: ids((w) => [w.entity.geofence.customer]),
      deviceReadonly: NO, limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'POST /api/notifications/test',
    variant: 'a test notification to itself (a write: not readonly accounts, visitors or QR drivers)',
    request: () => ({ path: '/api/notifications/test' }),
    expect: OWN_WRITERS,
  },
  {
    route: 'GET /api/notifications/types',
    variant: 'the event types a notification may watch (public knowledge: any signed-in account)',
    request: () => ({ path: '/api/notifications/types' }),
    expect: { ...OWN_WRITERS, readonly: OK, shared: OK, driver: OK },
  },
];
