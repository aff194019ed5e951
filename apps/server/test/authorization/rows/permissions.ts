// /api/permissions: links need access to both sides (a user side: oneself or a user of one's
// tree; managed-user links: managers only); readonly accounts change none; reading links is
// for administrators (Traccar).
import { NO } from '../roles.ts';
import { personOf, type CaseEnv, type Row } from '../table.ts';
import { ADMINS, CUSTOMER_TREE, OWN_WRITERS } from './common.ts';

/** After the case, the links are as the fixture had them (present or absent). */
function restoreLinks(env: CaseEnv, links: Array<Record<string, number>>, present: boolean): void {
  env.after(() => (present ? env.admin.post('/api/permissions/bulk', links) : env.admin.delete('/api/permissions/bulk', links)));
}

/** A device and a geofence of the role's own, not linked to each other yet. */
async function ownPair(env: CaseEnv): Promise<{ deviceId: number; geofenceId: number }> {
  const owner = personOf(env.role);
  return { deviceId: await env.scratch.device(owner), geofenceId: await env.scratch.entity('geofence', owner) };
}

export const permissionsRows: Row[] = [
  {
    route: 'GET /api/permissions',
    variant: "?userId=C&deviceId=0: C's device links",
    request: ({ w }) => ({ path: `/api/permissions?userId=${w.user.customer}&deviceId=0` }),
    expect: ADMINS,
  },
  {
    route: 'POST /api/permissions',
    variant: "giving C's employee C's first vehicle",
    request: (env) => {
      const link = { userId: env.w.user.staff, deviceId: env.w.device.customer1 };
      restoreLinks(env, [link], false);
      return { path: '/api/permissions', body: link };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'POST /api/permissions',
    variant: 'linking a geofence of its own to a device of its own',
    request: async (env) => ({ path: '/api/permissions', body: await ownPair(env) }),
    expect: OWN_WRITERS,
  },
  {
    route: 'POST /api/permissions',
    variant: "making S manage C's employee directly (managers of both only)",
    request: (env) => {
      const link = { userId: env.w.user.subReseller, managedUserId: env.w.user.staff };
      restoreLinks(env, [link], false);
      return { path: '/api/permissions', body: link };
    },
    expect: { ...CUSTOMER_TREE, customer: NO },
  },
  {
    route: 'DELETE /api/permissions',
    variant: "taking C's first vehicle from C's readonly operator",
    request: (env) => {
      const link = { userId: env.w.user.readonly, deviceId: env.w.device.customer1 };
      restoreLinks(env, [link], true);
      return { path: '/api/permissions', body: link };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'DELETE /api/permissions',
    variant: 'unlinking a geofence of its own from a device of its own',
    request: async (env) => {
      const pair = await ownPair(env);
      const linked = await env.admin.post('/api/permissions', pair);
      if (linked.status !== 204) throw new Error(`arranging the link failed: ${linked.status} ${linked.text}`);
      return { path: '/api/permissions', body: pair };
    },
    expect: OWN_WRITERS,
  },
  {
    route: 'POST /api/permissions/bulk',
    variant: "giving C's employee both of C's vehicles",
    request: (env) => {
      const links = [{ userId: env.w.user.staff, deviceId: env.w.device.customer1 }, { userId: env.w.user.staff, deviceId: env.w.device.customer2 }];
      restoreLinks(env, links, false);
      return { path: '/api/permissions/bulk', body: links };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'DELETE /api/permissions/bulk',
    variant: "taking C's first vehicle from C's readonly operator (bulk)",
    request: (env) => {
      const links = [{ userId: env.w.user.readonly, deviceId: env.w.device.customer1 }];
      restoreLinks(env, links, true);
      return { path: '/api/permissions/bulk', body: links };
    },
    expect: CUSTOMER_TREE,
  },
];
