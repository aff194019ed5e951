// Commands to a GT06 unit travel as the 0x80 "online command": `78 78 <len> 80 <command length>
// <server flag:4> <ASCII command> [<language:2>] <serial> <crc> 0D 0A` — the same text the unit
// takes by SMS. The unit answers with a 0x15 (or 0x21) packet carrying the flag and its reply.
//
// Engine stop and resume, as Traccar sends them:
//   - by default `Relay,1#` / `Relay,0#` — the relay command of current Concox firmware (GT06N
//     from 2015, GT06E, GT800, JM-VL01/VL02 and most clones);
//   - with the device attribute `gt06.alternative` = true, `DYD,<password>#` / `HFYD,<password>#`
//     — older GT06/GT06N firmware and clones that cut "oil and electricity". The password is the
//     command's `devicePassword`, else the device's `devicePassword` attribute, else `123456`
//     (Traccar's default; many units ship with 000000 — set the attribute then).
// The 2-byte language field (English) is added only for units whose device attribute
// `gt06.language` is true, as in Traccar: older units read it as part of the command.
import type { CommandType } from '@rastro/domain/commands';
import type { OutgoingCommand } from '../../commands/command-delivery.ts';
import type { ProtocolSession } from '../protocol.ts';
import { MSG } from './constants.ts';
import { buildFrame } from './framing.ts';

const DEFAULT_PASSWORD = '123456';
const ENGLISH = 0x0002;

/** A basic frame's length byte counts type, command length, flag, text, language, serial and CRC. */
const MAX_TEXT = 255 - (1 + 1 + 4 + 2 + 2 + 2);

const isTrue = (value: unknown) => value === true || value === 'true';

function password(command: OutgoingCommand, session: ProtocolSession): string {
  const own = command.attributes.devicePassword;
  if (typeof own === 'string' && own !== '') return own;
  const device = session.deviceAttributes?.devicePassword;
  return typeof device === 'string' && device !== '' ? device : DEFAULT_PASSWORD;
}

/** The SMS-style text of each command type we send; `null` for a custom command without text. */
const TEXTS: Partial<Record<CommandType, (command: OutgoingCommand, session: ProtocolSession) => string | null>> = {
  engineStop: (c, s) => (isTrue(s.deviceAttributes?.['gt06.alternative']) ? `DYD,${password(c, s)}#` : 'Relay,1#'),
  engineResume: (c, s) => (isTrue(s.deviceAttributes?.['gt06.alternative']) ? `HFYD,${password(c, s)}#` : 'Relay,0#'),
  positionSingle: () => 'WHERE#',
  rebootDevice: () => 'RESET#',
  getVersion: () => 'VERSION#',
  getDeviceStatus: () => 'STATUS#',
  custom: (c, s) => {
    const data = c.attributes.data;
    if (typeof data !== 'string' && typeof data !== 'number') return null;
    return String(data).replaceAll('{uniqueId}', s.uniqueId ?? '');
  },
};

/** The command types `encodeGt06Command` writes (PROTOCOL_COMMAND_TYPES.gt06 lists the same). */
export const GT06_COMMAND_TYPES = Object.keys(TEXTS) as CommandType[];

/**
 * The 0x80 frame carrying `text` (server flag and serial 0, as Traccar sends them), or null
 * when the text cannot travel: empty, not printable ASCII, or longer than a basic frame holds.
 */
export function onlineCommand(text: string, language: boolean): Buffer | null {
  if (text === '' || text.length > MAX_TEXT || !/^[\x20-\x7e]+$/.test(text)) return null;
  const content = Buffer.alloc(1 + 4 + text.length + (language ? 2 : 0));
  content[0] = 4 + text.length;
  content.write(text, 5, 'latin1');
  if (language) content.writeUInt16BE(ENGLISH, 5 + text.length);
  return buildFrame(MSG.COMMAND_0, content, 0);
}

export function encodeGt06Command(command: OutgoingCommand, session: ProtocolSession): Buffer | null {
  const text = TEXTS[command.type as CommandType]?.(command, session);
  if (text === undefined || text === null) return null;
  return onlineCommand(text, isTrue(session.deviceAttributes?.['gt06.language']));
}
