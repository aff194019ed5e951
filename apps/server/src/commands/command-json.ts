// Rows -> API JSON for saved commands, queued commands and command lifecycles.
import type { Command, QueuedCommand } from '@rastro/domain/commands';
import type { CommandLogEntry, CommandStatus } from '@rastro/domain/command-log';
import type { Selectable } from 'kysely';
import type { CommandLogTable, CommandQueueTable, CommandTable } from '../storage/schema.ts';
import { parseAttributes, toIso } from '../http/json.ts';

export type CommandRow = Selectable<CommandTable>;
export type QueuedCommandRow = Selectable<CommandQueueTable>;
export type CommandLogRow = Selectable<CommandLogTable>;

/** A saved command; `deviceId` is 0 as Traccar sends it (it only means something in send requests). */
export function commandToJson(row: CommandRow): Command {
  return {
    id: Number(row.id),
    deviceId: 0,
    description: row.description,
    type: row.type,
    textChannel: row.textChannel === 1,
    attributes: parseAttributes(row.attributes, 'command.attributes', Number(row.id)),
  };
}

export function queuedCommandToJson(row: QueuedCommandRow): QueuedCommand {
  return {
    id: Number(row.id),
    deviceId: Number(row.deviceId),
    type: row.type,
    textChannel: row.textChannel === 1,
    attributes: parseAttributes(row.attributes, 'queuedCommand.attributes', Number(row.id)),
  };
}

export function commandLogToJson(row: CommandLogRow): CommandLogEntry {
  const id = Number(row.id);
  return {
    id,
    deviceId: Number(row.deviceId),
    userId: row.userId === null ? null : Number(row.userId),
    type: row.type,
    description: row.description,
    attributes: parseAttributes(row.attributes, 'commandLog.attributes', id),
    status: row.status as CommandStatus,
    reason: row.reason as CommandLogEntry['reason'],
    createdTime: toIso(Number(row.createdTime), 'commandLog.createdTime', id),
    sentTime: toIso(row.sentTime, 'commandLog.sentTime', id),
    acknowledgedTime: toIso(row.acknowledgedTime, 'commandLog.acknowledgedTime', id),
    confirmedTime: toIso(row.confirmedTime, 'commandLog.confirmedTime', id),
    failedTime: toIso(row.failedTime, 'commandLog.failedTime', id),
    result: row.result,
  };
}
