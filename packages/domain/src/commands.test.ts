import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES, NATIVE_COMMAND_ACTIONS, PROTOCOL_COMMAND_TYPES, commandText, commandTypesForProtocol, isCommandType } from './commands.ts';

describe('command types', () => {
  it("lists Traccar's types once each, custom first", () => {
    expect(COMMAND_TYPES[0]).toBe('custom');
    expect(new Set(COMMAND_TYPES).size).toBe(COMMAND_TYPES.length);
    expect(COMMAND_TYPES).toHaveLength(46);
    expect(COMMAND_TYPES).toEqual(expect.arrayContaining(['engineStop', 'engineResume', 'outputControl', 'alarmVibration']));
  });

  it('native actions are those of spec §9; all but the anchor ones are device command types', () => {
    expect([...NATIVE_COMMAND_ACTIONS]).toEqual([
      'custom', 'engineStop', 'engineResume', 'anchorEnable', 'anchorDisable', 'deviceIdentification', 'positionSingle',
      'alarmArm', 'alarmDisarm', 'outputControl', 'rebootDevice',
    ]);
    const device = NATIVE_COMMAND_ACTIONS.filter((a) => !a.startsWith('anchor'));
    for (const a of device) expect(isCommandType(a)).toBe(true);
    expect(isCommandType('anchorEnable')).toBe(false);
    // OsmAnd takes custom alone, as Traccar lists it (lock still reaches a phone through the queue).
    expect(commandTypesForProtocol('osmand')).toEqual(['custom']);
  });

  it('per protocol: known types only, custom always; a device that never reported gets custom alone', () => {
    for (const types of Object.values(PROTOCOL_COMMAND_TYPES)) {
      expect(types).toContain('custom');
      for (const t of types) expect(isCommandType(t)).toBe(true);
    }
    expect(commandTypesForProtocol(null)).toEqual(['custom']);
    expect(commandTypesForProtocol('unknownproto')).toEqual(['custom']);
    expect(commandTypesForProtocol('GT06')).toContain('engineStop');
  });
});

describe('command text for polling devices', () => {
  it('custom: the data as it is, {uniqueId} replaced', () => {
    expect(commandText({ type: 'custom', attributes: { data: 'setparam 1 {uniqueId}' } }, '123')).toBe('setparam 1 123');
    expect(commandText({ type: 'custom', attributes: {} }, '123')).toBe('');
  });
  it('other types: the type and its parameters, sorted, noQueue left out', () => {
    expect(commandText({ type: 'engineStop', attributes: {} }, '1')).toBe('engineStop');
    expect(commandText({ type: 'outputControl', attributes: { index: 2, data: '1', noQueue: false } }, '1')).toBe('outputControl data=1 index=2');
    expect(commandText({ type: 'message', attributes: { message: 'hello there' } }, '1')).toBe('message message="hello there"');
  });
});
