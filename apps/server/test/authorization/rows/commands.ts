// Sending commands and following them: readonly accounts send nothing; limitCommands accounts
// send only saved commands they may use (Traccar's exception); deviceReadonly does not apply to
// commands; the share visitor and the QR driver have no command screens.
import { NO, OK, SIGNED_OUT, ids, none } from '../roles.ts';
import { personOf, type CaseEnv, type Row } from '../table.ts';
import { CUSTOMER_TREE, OWN_WRITERS } from './common.ts';

/** Cancels, after the case, whatever is still queued for the device (the fixture's vehicles never reconnect). */
function cancelQueued(env: CaseEnv, deviceId: number): void {
  env.after(async () => {
    const log = await env.admin.get<Array<{ id: number; status: string }>>(`/api/commands/log?deviceId=${deviceId}`);
    for (const entry of log.json ?? []) if (entry.status === 'queued') await env.admin.delete(`/api/commands/log/${entry.id}`);
  });
}

const adHoc = (deviceId: number) => ({ deviceId, type: 'custom', attributes: { data: 'PING#' } });

/** Reading the command screens of C's first vehicle: whoever sees it (the visitor too: it reads its vehicle). */
const COMMANDS_OF_CUSTOMER1 = { ...CUSTOMER_TREE, readonly: OK, shared: OK } as const;

export const commandsRows: Row[] = [
  {
    route: 'GET /api/commands/types',
    variant: 'every command type (public knowledge: any signed-in account)',
    request: () => ({ path: '/api/commands/types' }),
    expect: { ...OWN_WRITERS, readonly: OK, shared: OK, driver: OK },
  },
  {
    route: 'GET /api/commands/types',
    variant: "?deviceId=<C's first vehicle>: what it accepts",
    request: ({ w }) => ({ path: `/api/commands/types?deviceId=${w.device.customer1}` }),
    expect: COMMANDS_OF_CUSTOMER1,
  },
  {
    route: 'GET /api/commands/send',
    variant: "?deviceId=<limitCommands' vehicle>: the saved commands the caller may send to it",
    request: ({ w }) => ({ path: `/api/commands/send?deviceId=${w.device.limitCommands}` }),
    expect: {
      admin: ids((w) => [w.entity.command.limitCommands]), admin2: ids(none), reseller: ids(none), subReseller: NO, customer: NO,
      unrelated: NO, readonly: NO, deviceReadonly: NO, limitCommands: ids((w) => [w.entity.command.limitCommands]), shared: NO, driver: NO,
      ...SIGNED_OUT,
    },
  },
  {
    route: 'POST /api/commands/send',
    variant: 'an ad-hoc command to a device of its own',
    request: async ({ scratch, role }) => ({ path: '/api/commands/send', body: adHoc(await scratch.device(personOf(role))) }),
    expect: { ...OWN_WRITERS, limitCommands: NO },
  },
  {
    route: 'POST /api/commands/send',
    variant: "a saved command to limitCommands' vehicle (what limitCommands may still send)",
    request: (env) => {
      cancelQueued(env, env.w.device.limitCommands);
      return { path: '/api/commands/send', body: { id: env.w.entity.command.limitCommands, deviceId: env.w.device.limitCommands } };
    },
    expect: {
      admin: OK, admin2: OK, reseller: NO, subReseller: NO, customer: NO, unrelated: NO, readonly: NO, deviceReadonly: NO,
      limitCommands: OK, shared: NO, driver: NO, ...SIGNED_OUT,
    },
  },
  {
    route: 'POST /api/commands/send',
    variant: "an ad-hoc command to C's first vehicle",
    request: (env) => {
      cancelQueued(env, env.w.device.customer1);
      return { path: '/api/commands/send', body: adHoc(env.w.device.customer1) };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'POST /api/commands/send',
    variant: "?groupId=<C's group>: an ad-hoc command to every vehicle of C's group",
    request: (env) => {
      cancelQueued(env, env.w.device.customer2);
      return { path: `/api/commands/send?groupId=${env.w.group.customer}`, body: { type: 'custom', attributes: { data: 'PING#' } } };
    },
    expect: CUSTOMER_TREE,
  },
  {
    route: 'GET /api/commands/log',
    variant: "?deviceId=<C's first vehicle>: its command history",
    request: ({ w }) => ({ path: `/api/commands/log?deviceId=${w.device.customer1}` }),
    expect: COMMANDS_OF_CUSTOMER1,
  },
  {
    route: 'DELETE /api/commands/log/:id',
    variant: 'cancelling a command queued for a device of its own',
    request: async ({ scratch, role }) => ({ path: `/api/commands/log/${await scratch.queuedCommand(await scratch.device(personOf(role)))}` }),
    expect: OWN_WRITERS,
  },
  {
    route: 'DELETE /api/commands/log/:id',
    variant: 'cancelling a command queued for a device of C',
    request: async ({ scratch }) => ({ path: `/api/commands/log/${await scratch.queuedCommand(await scratch.device('customer'))}` }),
    expect: CUSTOMER_TREE,
  },
];
