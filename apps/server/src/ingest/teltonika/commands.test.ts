// Teltonika command encoding: codec 12 packets, exact bytes with their CRC-16/IBM.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_COMMAND_TYPES } from '@rastro/domain/commands';
import type { ProtocolSession } from '../protocol.ts';
import { readAvlData } from './avl-data.ts';
import { ByteReader } from './byte-reader.ts';
import { TELTONIKA_COMMANDS } from './commands.ts';
import { crc16Ibm } from './crc16-ibm.ts';
import { teltonikaProtocol } from './teltonika.ts';

const tcp: ProtocolSession = { transport: 'tcp', remote: '127.0.0.1:1', uniqueId: '356307042441013', deviceAttributes: {}, state: {} };
const udp: ProtocolSession = { ...tcp, transport: 'udp' };
const encode = (type: string, attributes: Record<string, unknown> = {}, session = tcp) =>
  teltonikaProtocol.encodeCommand({ deviceId: 1, type, textChannel: false, attributes }, session)?.toString('hex') ?? null;

describe('Teltonika commands (codec 12)', () => {
  it('CRC-16/IBM gives the standard check value', () => {
    expect(crc16Ibm(Buffer.from('123456789')).toString(16)).toBe('bb3d');
  });

  it('custom text: Teltonika\'s documented getinfo packet, byte for byte', () => {
    expect(encode('custom', { data: 'getinfo' })).toBe('000000000000000f0c010500000007676574696e666f0100004312');
  });

  it('engineStop / engineResume switch digital output 1', () => {
    expect(encode('engineStop')).toBe('00000000000000130c01050000000b7365746469676f7574203101000087a2');
    expect(encode('engineResume')).toBe('00000000000000130c01050000000b7365746469676f7574203001000017a3');
  });

  it('positionSingle, rebootDevice, getVersion and getModemStatus', () => {
    expect(encode('positionSingle')).toBe('00000000000000110c0105000000096765747265636f72640100001805');
    expect(encode('rebootDevice')).toBe('00000000000000100c01050000000863707572657365740100007a75');
    expect(encode('getVersion')).toBe('000000000000000e0c010500000006676574766572010000a4c2');
    expect(encode('getModemStatus')).toBe('00000000000000110c0105000000096765747374617475730100008cd7');
  });

  it('custom: {uniqueId} is replaced, and hex pairs are sent as bytes (as Traccar does)', () => {
    expect(Buffer.from(encode('custom', { data: 'sn {uniqueId}' })!, 'hex').subarray(15, -5).toString()).toBe('sn 356307042441013');
    expect(encode('custom', { data: '0102ab' })).toBe('000000000000000b0c0105000000030102ab010000090b');
  });

  it('the same bytes go over UDP (Teltonika sends UDP commands exactly as TCP ones)', () => {
    expect(encode('engineStop', {}, udp)).toBe(encode('engineStop'));
  });

  it('types without an encoding give null', () => {
    expect(encode('alarmArm')).toBeNull();
    expect(encode('positionPeriodic', { frequency: 60 })).toBeNull();
  });

  it('every packet is one our own decoder reads back as a codec 12 command of that text', () => {
    for (const [type, text] of Object.entries(TELTONIKA_COMMANDS)) {
      const packet = Buffer.from(encode(type)!, 'hex');
      expect(teltonikaProtocol.frameLength(packet, 0, tcp)).toBe(packet.length);
      expect(packet.readUInt32BE(packet.length - 4)).toBe(crc16Ibm(packet, 8, packet.length - 4));
      const data = readAvlData(new ByteReader(packet, 8, packet.length - 4), 0);
      expect(data.fixes[0]!.attributes.result).toBe(text);
    }
  });

  it('PROTOCOL_COMMAND_TYPES lists exactly what the encoder handles', () => {
    expect([...PROTOCOL_COMMAND_TYPES.teltonika!].sort()).toEqual(['custom', ...Object.keys(TELTONIKA_COMMANDS)].sort());
  });
});
