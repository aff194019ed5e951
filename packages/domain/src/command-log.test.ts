import { describe, expect, it } from 'vitest';
import { COMMAND_STATUSES, FAILED_REASONS, QUEUED_REASONS, UNCONFIRMED, expectedBlocked, isInFlight, nativeAction } from './command-log.ts';

describe('command lifecycle rules', () => {
  it('the native action is the saved command\'s tarkan.changeNative, else its type', () => {
    expect(nativeAction({ type: 'engineStop', attributes: {} })).toBe('engineStop');
    expect(nativeAction({ type: 'custom', attributes: { data: 'RELAY,1#', 'tarkan.changeNative': 'engineStop' } })).toBe('engineStop');
    expect(nativeAction({ type: 'custom', attributes: { 'tarkan.changeNative': '' } })).toBe('custom');
    expect(nativeAction({ type: 'custom', attributes: { 'tarkan.changeNative': 1 } })).toBe('custom');
  });

  it('only engine stop and resume are confirmed by a position (blocked true / false)', () => {
    expect(expectedBlocked('engineStop')).toBe(true);
    expect(expectedBlocked('engineResume')).toBe(false);
    for (const type of ['custom', 'positionSingle', 'rebootDevice', 'alarmArm']) expect(expectedBlocked(type)).toBeUndefined();
  });

  it('in flight: queued, sent, and acknowledged engine stops/resumes still awaiting their confirmation', () => {
    const entry = (status: (typeof COMMAND_STATUSES)[number], type = 'engineStop', reason: string | null = null) =>
      ({ status, type, attributes: {}, reason }) as Parameters<typeof isInFlight>[0];
    expect(isInFlight(entry('queued'))).toBe(true);
    expect(isInFlight(entry('sent', 'custom'))).toBe(true);
    expect(isInFlight(entry('acknowledged'))).toBe(true);
    expect(isInFlight(entry('acknowledged', 'engineStop', UNCONFIRMED))).toBe(false);
    expect(isInFlight(entry('acknowledged', 'custom'))).toBe(false);
    expect(isInFlight({ status: 'acknowledged', type: 'custom', reason: null, attributes: { 'tarkan.changeNative': 'engineResume' } })).toBe(true);
    expect(isInFlight(entry('confirmed'))).toBe(false);
    expect(isInFlight(entry('failed'))).toBe(false);
  });

  it('statuses and reasons are distinct names', () => {
    const all = [...COMMAND_STATUSES, ...QUEUED_REASONS, ...FAILED_REASONS, UNCONFIRMED];
    expect(new Set(all).size).toBe(all.length);
  });
});
