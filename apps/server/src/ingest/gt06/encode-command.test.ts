// GT06 online commands (0x80): exact bytes, checked against the frames Concox documents and
// Traccar wrote.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_COMMAND_TYPES } from '@rastro/domain/commands';
import { GT06_COMMAND_TYPES } from './encode-command.ts';
import { buildFrame } from './framing.ts';
import { gt06Protocol } from './gt06.ts';
import { identifiedSession, IMEI, TRACCAR_DYD_COMMAND } from './gt06-vectors.ts';

const encode = (type: string, attributes: Record<string, unknown> = {}, deviceAttributes: Record<string, unknown> = {}) =>
  gt06Protocol.encodeCommand({ deviceId: 1, type, textChannel: false, attributes }, identifiedSession(deviceAttributes))?.toString('hex') ?? null;

describe('GT06 commands (0x80 online command)', () => {
  it('the frame layout gives the CRC of Concox\'s own example (DYD,000000#, flag 0x0001A958, serial 0x00A0)', () => {
    const content = Buffer.concat([Buffer.from('0f0001a958', 'hex'), Buffer.from('DYD,000000#')]);
    expect(buildFrame(0x80, content, 0x00a0).toString('hex')).toBe('787815800f0001a9584459442c3030303030302300a0dcf10d0a');
  });

  it('engineStop / engineResume: Relay,1# and Relay,0#, flag and serial 0 (Traccar\'s default)', () => {
    expect(encode('engineStop')).toBe('787812800c0000000052656c61792c312300009dee0d0a');
    expect(encode('engineResume')).toBe('787812800c0000000052656c61792c3023000081550d0a');
  });

  it('gt06.alternative: DYD,<password># — byte for byte what Traccar wrote — and HFYD,<password>#', () => {
    expect(encode('engineStop', {}, { 'gt06.alternative': true })).toBe(TRACCAR_DYD_COMMAND);
    expect(encode('engineResume', {}, { 'gt06.alternative': 'true', devicePassword: '000000' })).toBe(
      '787816801000000000484659442c303030303030230000710c0d0a',
    );
  });

  it('the command\'s devicePassword wins over the device\'s', () => {
    const text = (hex: string) => Buffer.from(hex, 'hex').subarray(9, -6).toString('latin1');
    expect(text(encode('engineStop', { devicePassword: '654321' }, { 'gt06.alternative': true, devicePassword: '000000' })!)).toBe('DYD,654321#');
    expect(text(encode('engineStop', {}, { 'gt06.alternative': true, devicePassword: '000000' })!)).toBe('DYD,000000#');
  });

  it('gt06.language adds the English language field after the text', () => {
    expect(encode('engineStop', {}, { 'gt06.language': true })).toBe('787814800c0000000052656c61792c312300020000f59f0d0a');
  });

  it('positionSingle WHERE#, rebootDevice RESET#, getVersion VERSION#, getDeviceStatus STATUS#', () => {
    expect(encode('positionSingle')).toBe('787810800a00000000574845524523000064eb0d0a');
    expect(encode('rebootDevice')).toBe('787810800a000000005245534554230000dc090d0a');
    expect(encode('getVersion')).toBe('787812800c0000000056455253494f4e230000752c0d0a');
    expect(encode('getDeviceStatus')).toBe('787811800b0000000053544154555323000073120d0a');
  });

  it('custom: the data as the text, {uniqueId} replaced', () => {
    const text = (hex: string) => Buffer.from(hex, 'hex').subarray(9, -6).toString('latin1');
    expect(text(encode('custom', { data: 'SERVER,1,{uniqueId}.example.com,5023,0#' })!)).toBe(`SERVER,1,${IMEI}.example.com,5023,0#`);
    expect(text(encode('custom', { data: 12345 })!)).toBe('12345');
  });

  it('what cannot travel is refused (null): no text, non-ASCII, too long for a frame, a type GT06 has no command for', () => {
    expect(encode('custom', {})).toBeNull();
    expect(encode('custom', { data: '' })).toBeNull();
    expect(encode('custom', { data: 'ação#' })).toBeNull();
    expect(encode('custom', { data: 'x'.repeat(244) })).toBeNull();
    expect(encode('custom', { data: 'x'.repeat(243) })).not.toBeNull();
    expect(encode('alarmArm')).toBeNull();
    expect(encode('setTimezone', { timezone: 'GMT-3' })).toBeNull();
  });

  it('PROTOCOL_COMMAND_TYPES.gt06 lists exactly the types the encoder writes', () => {
    expect([...PROTOCOL_COMMAND_TYPES.gt06!].sort()).toEqual([...GT06_COMMAND_TYPES].sort());
    for (const type of GT06_COMMAND_TYPES) expect(encode(type, { data: 'STATUS#' })).not.toBeNull();
  });
});
