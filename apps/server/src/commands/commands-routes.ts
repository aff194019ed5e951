// /api/commands: saved commands (list with the extended parameters, get, create with the
// creator linked, update, delete), the types a device accepts (/types), the saved commands
// usable for a device (GET /send) and sending (POST /send: 200 delivered live, 202 queued;
// `?groupId=` sends to every device of a group).
//
// Restrictions: readonly accounts change nothing and send nothing; `limitCommands` (user or
// server, non-administrators) forbids ad-hoc commands and creating/changing/deleting saved
// ones, but a saved command the user may use can still be sent. `deviceReadonly` does not
// apply to commands. SMS (textChannel) needs a gateway this server does not have yet.
//
// Beyond Traccar, each answer of POST /send also carries `commandLog`: the command's lifecycle
// entry (status, and why it waits — e.g. an engine stop held until the vehicle slows down),
// which GET /api/commands/log follows (command-log-routes.ts).
import type { FastifyInstance } from 'fastify';
import { COMMAND_TYPES, commandTypesForProtocol } from '@rastro/domain/commands';
import { COMMAND_WRITABLE_FIELDS, commandSchema, commandSendSchema, commandUpdateSchema, TYPE_REQUIRED } from '@rastro/domain/schemas/command';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import type { ServerRow } from '../server-info/server-repo.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, forbidden, notFound } from '../http/errors.ts';
import { boolParam, intParam, pathId, type Query } from '../access/list-params.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import { fromBool, parseAttributes } from '../http/json.ts';
import { extendedListFilter } from '../access/extended-list.ts';
import { notDeletedDevice, visibleDeviceIdsQuery } from '../access/visibility.ts';
import { CommandsRepo } from './commands-repo.ts';
import { commandLogToJson, commandToJson, queuedCommandToJson, type CommandRow } from './command-json.ts';
import { commandDelivery, type CommandOrigin, type OutgoingCommand } from './command-delivery.ts';
import { commandLogRoutes } from './command-log-routes.ts';

type WithId = { Params: { id: string } };

const commandDenied = () => forbidden('Command access denied - you cannot use this command');
const smsUnavailable = () => badRequest('SMS not configured - commands cannot be sent as text messages on this server');

const on = (v: number | boolean | null | undefined) => v === true || v === 1;

/** limitCommands (user or server) applies to non-administrators. */
function limited(user: UserRow, server: ServerRow): boolean {
  return user.administrator !== 1 && (on(user.limitCommands) || on(server.limitCommands));
}

export async function commandsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const commands = new CommandsRepo(ctx.storage.db);
  const delivery = commandDelivery(ctx);

  async function usableCommand(user: UserRow, id: number): Promise<CommandRow> {
    if (user.administrator !== 1 && !(await commands.isLinkedToUser(user.id, id))) throw commandDenied();
    const row = await commands.findById(id);
    if (!row) throw notFound('Command not found');
    return row;
  }

  async function assertMayEdit(user: UserRow): Promise<void> {
    const server = await getServerRow(ctx);
    assertCanWrite(user, server);
    if (limited(user, server)) throw forbidden('Operation restricted - this account cannot create or change saved commands');
  }

  /**
   * A device the caller sees, with the protocol of its latest position (null if it never
   * reported). A device that does not exist is a 400 for administrators too, as in Traccar
   * (GET /api/commands/types?deviceId=999999), the status everyone else gets for it.
   */
  async function visibleDevice(user: UserRow, deviceId: number) {
    if (!(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
    const device = await ctx.storage.db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirst();
    if (!device) throw badRequest(`Device not found - there is no device ${deviceId}`);
    let protocol: string | null = null;
    if (device.positionId !== null) {
      const position = await ctx.storage.db.selectFrom('positions').select('protocol').where('id', '=', device.positionId).executeTakeFirst();
      protocol = position?.protocol ?? null;
    }
    return { device, protocol };
  }

  function requiredDeviceId(query: Query): number {
    const deviceId = intParam(query, 'deviceId');
    if (!deviceId) throw badRequest('Device is required - pass deviceId');
    return deviceId;
  }

  app.get<{ Querystring: Query }>('/api/commands', async (req) => {
    const user = requireUser(req);
    const rows = await commands.list(await extendedListFilter(ctx, user, req.query));
    return rows.map(commandToJson);
  });

  // Without a device: every type. With one: what its protocol accepts over data; over SMS
  // (textChannel=true) `custom` alone (the raw text), as Traccar answers for protocols without
  // SMS encoders — none of ours has one.
  app.get<{ Querystring: Query }>('/api/commands/types', async (req) => {
    const user = requireUser(req);
    const deviceId = intParam(req.query, 'deviceId');
    if (!deviceId) return COMMAND_TYPES.map((type) => ({ type }));
    const { protocol } = await visibleDevice(user, deviceId);
    if (boolParam(req.query, 'textChannel')) return [{ type: 'custom' }];
    return commandTypesForProtocol(protocol).map((type) => ({ type }));
  });

  app.get<{ Querystring: Query }>('/api/commands/send', async (req) => {
    const user = requireUser(req);
    const deviceId = requiredDeviceId(req.query);
    const { protocol } = await visibleDevice(user, deviceId);
    const supported = new Set<string>(commandTypesForProtocol(protocol));
    const rows = await commands.forUserAndDevice(user.id, deviceId);
    return rows.filter((r) => supported.has(r.type)).map(commandToJson);
  });

  /** Devices of a group and its child and grandchild groups that the caller sees. */
  async function devicesOfGroup(user: UserRow, groupId: number) {
    const db = ctx.storage.db;
    const groupIds = db
      .selectFrom('groups as g0')
      .select('g0.id as id')
      .where('g0.id', '=', groupId)
      .union(db.selectFrom('groups as g1').select('g1.id as id').where('g1.groupId', '=', groupId))
      .union(
        db.selectFrom('groups as g2').innerJoin('groups as g1', 'g1.id', 'g2.groupId').select('g2.id as id').where('g1.groupId', '=', groupId),
      );
    let query = db.selectFrom('devices').selectAll().where('devices.groupId', 'in', groupIds).where(notDeletedDevice('devices.uniqueId'));
    if (user.administrator !== 1) query = query.where('devices.id', 'in', visibleDeviceIdsQuery(db, user.id));
    return query.orderBy('devices.id').execute();
  }

  // `?groupId=N` sends to every device of the group (and its subgroups) the caller sees:
  // 202 with the list of queued commands when any was queued, else 200 with the command.
  app.post<{ Querystring: Query }>('/api/commands/send', async (req, reply) => {
    const user = requireUser(req);
    const server = await getServerRow(ctx);
    assertCanWrite(user, server);
    const body = parseWith(commandSendSchema, req.body);
    const groupId = intParam(req.query, 'groupId') || null;
    const deviceId = body.deviceId ?? null;
    if (deviceId === null && groupId === null) throw badRequest('Device is required - fill in the deviceId field');
    const savedId = body.id ?? null;
    let command: Omit<OutgoingCommand, 'deviceId'>;
    const origin: CommandOrigin = { userId: user.id, description: body.description ?? null };
    if (savedId !== null) {
      const saved = await usableCommand(user, savedId);
      command = { type: saved.type, textChannel: saved.textChannel === 1, attributes: parseAttributes(saved.attributes) };
      origin.description = saved.description;
    } else {
      if (limited(user, server)) throw forbidden('Operation restricted - this account may only send saved commands');
      if (body.type === undefined) throw badRequest(TYPE_REQUIRED);
      command = { type: body.type, textChannel: body.textChannel === true, attributes: body.attributes ?? {} };
    }
    const sent = (id: number) => ({
      id: savedId ?? 0, deviceId: id, description: body.description ?? null, type: command.type, textChannel: command.textChannel, attributes: command.attributes,
    });

    if (groupId !== null) {
      if (!(await ctx.visibility.canSeeGroup(user, groupId))) throw accessDenied.group();
      if (command.textChannel) throw smsUnavailable();
      const queuedRows = [];
      for (const device of await devicesOfGroup(user, groupId)) {
        const result = await delivery.deliver(device, { ...command, deviceId: device.id }, origin);
        if (result?.kind === 'queued') queuedRows.push({ ...queuedCommandToJson(result.row), commandLog: commandLogToJson(result.log) });
      }
      if (queuedRows.length > 0) return reply.code(202).send(queuedRows);
      return reply.code(200).send(sent(0));
    }

    const { device } = await visibleDevice(user, deviceId!);
    if (command.textChannel) throw smsUnavailable();
    const result = await delivery.deliver(device, { ...command, deviceId: device.id }, origin);
    if (!result) throw badRequest('Device is not connected - the command was not queued (noQueue)');
    if (result.kind === 'held') {
      const limit = await delivery.guard.limitKmh();
      throw badRequest(`Vehicle moving - an engine stop waits until the vehicle is at or below ${limit} km/h; send it without noQueue to have it wait`);
    }
    if (result.kind === 'sent') return reply.code(200).send({ ...sent(device.id), commandLog: commandLogToJson(result.log) });
    return reply.code(202).send({ ...queuedCommandToJson(result.row), commandLog: commandLogToJson(result.log) });
  });

  await commandLogRoutes(app, ctx);

  app.get<WithId>('/api/commands/:id', async (req) => commandToJson(await usableCommand(requireUser(req), pathId(req.params.id))));

  app.post('/api/commands', async (req) => {
    const user = requireUser(req);
    await assertMayEdit(user);
    const body = parseWith(commandSchema, req.body);
    const values = {
      description: body.description ?? null,
      type: body.type,
      textChannel: fromBool(body.textChannel),
      attributes: JSON.stringify(body.attributes ?? {}),
    };
    const row = await ctx.storage.db.transaction().execute(async (trx) => {
      const created = await new CommandsRepo(trx).insert(values);
      await trx.insertInto('userCommand').values({ ownerId: user.id, propertyId: created.id }).execute();
      return created;
    });
    return commandToJson(row);
  });

  app.put<WithId>('/api/commands/:id', async (req) => {
    const user = requireUser(req);
    const current = await usableCommand(user, pathId(req.params.id));
    await assertMayEdit(user);
    const body = parseUpdate(commandUpdateSchema, req.body, COMMAND_WRITABLE_FIELDS);
    const row = await commands.update(current.id, {
      description: body.description !== undefined ? body.description : current.description,
      type: body.type ?? current.type,
      textChannel: body.textChannel !== undefined ? fromBool(body.textChannel) : current.textChannel,
      attributes: body.attributes !== undefined ? JSON.stringify(body.attributes) : current.attributes,
    });
    if (!row) throw notFound('Command not found');
    return commandToJson(row);
  });

  app.delete<WithId>('/api/commands/:id', async (req, reply) => {
    const user = requireUser(req);
    const command = await usableCommand(user, pathId(req.params.id));
    await assertMayEdit(user);
    await commands.delete(command.id);
    return reply.code(204).send();
  });
}
