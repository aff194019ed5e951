// Commands to FM devices: codec 12 GPRS commands, i.e. the text of an SMS command sent over
// the data connection (Teltonika: "UDP commands are sent the same exact way as TCP
// commands"). The device answers with a codec 12 response (type 0x06) that serial.ts turns
// into `result`.
//
//   00000000 | data length (4) | 0C | 01 | 05 | command length (4) | command | 01 | CRC-16/IBM (4)
import { commandText, type CommandType } from '@rastro/domain/commands';
import type { OutgoingCommand } from '../../commands/command-delivery.ts';
import type { ProtocolSession } from '../protocol.ts';
import { CODEC_12, COMMAND_TYPE } from './constants.ts';
import { crc16Ibm } from './crc16-ibm.ts';

/**
 * The FMB/FMC/FMM SMS/GPRS commands behind each type. `setdigout 1` / `setdigout 0` switch
 * digital output 1, where installers wire the engine-cut relay; `getrecord` makes the device
 * save and send a high-priority record at once (the position arrives as any other);
 * `cpureset` restarts it; `getver` and `getstatus` answer with firmware and modem details.
 */
export const TELTONIKA_COMMANDS: Readonly<Partial<Record<CommandType, string>>> = {
  engineStop: 'setdigout 1',
  engineResume: 'setdigout 0',
  positionSingle: 'getrecord',
  rebootDevice: 'cpureset',
  getVersion: 'getver',
  getModemStatus: 'getstatus',
};

/** Hex pairs only: Traccar sends such a custom payload as those bytes, not as text (binary commands of special firmware). */
const HEX_PAYLOAD = /^(?:[0-9a-fA-F]{2})+$/;

/** A codec 12 command packet carrying `content`. */
export function codec12Packet(content: Buffer): Buffer {
  const packet = Buffer.alloc(4 + 4 + 1 + 1 + 1 + 4 + content.length + 1 + 4);
  packet.writeUInt32BE(content.length + 8, 4);
  packet[8] = CODEC_12;
  packet[9] = 1;
  packet[10] = COMMAND_TYPE;
  packet.writeUInt32BE(content.length, 11);
  content.copy(packet, 15);
  const end = 15 + content.length;
  packet[end] = 1;
  packet.writeUInt32BE(crc16Ibm(packet, 8, end + 1), end + 1);
  return packet;
}

function customContent(command: OutgoingCommand, uniqueId: string): Buffer {
  const data = commandText(command, uniqueId);
  return HEX_PAYLOAD.test(data) ? Buffer.from(data, 'hex') : Buffer.from(data, 'utf8');
}

export function encodeCommand(command: OutgoingCommand, session: ProtocolSession): Buffer | null {
  if (command.type === 'custom') return codec12Packet(customContent(command, session.uniqueId ?? ''));
  const text = TELTONIKA_COMMANDS[command.type as CommandType];
  return text === undefined ? null : codec12Packet(Buffer.from(text, 'ascii'));
}
