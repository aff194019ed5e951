// Rows -> API JSON for saved commands and queued commands.
import type { Command, QueuedCommand } from '@rastro/domain/commands';
import type { Selectable } from 'kysely';
import type { CommandQueueTable, CommandTable } from '../storage/schema.ts';
import { parseAttributes } from '../http/json.ts';

export type CommandRow = Selectable<CommandTable>;
export type QueuedCommandRow = Selectable<CommandQueueTable>;

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
