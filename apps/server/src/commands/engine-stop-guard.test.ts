import { describe, expect, it } from 'vitest';
import { ENGINE_STOP_MAX_SPEED_ATTRIBUTE, engineStopLimitKmh, isEngineStop } from './engine-stop-guard.ts';

describe('engine stop speed limit', () => {
  it('the server attribute overrides the configured km/h when it is a number ≥ 0', () => {
    expect(engineStopLimitKmh({}, 20)).toBe(20);
    expect(engineStopLimitKmh({ [ENGINE_STOP_MAX_SPEED_ATTRIBUTE]: 35 }, 20)).toBe(35);
    expect(engineStopLimitKmh({ [ENGINE_STOP_MAX_SPEED_ATTRIBUTE]: '5' }, 20)).toBe(5);
    expect(engineStopLimitKmh({ [ENGINE_STOP_MAX_SPEED_ATTRIBUTE]: 0 }, 20)).toBe(0);
    for (const bad of [-1, 'fast', '', null, true]) expect(engineStopLimitKmh({ [ENGINE_STOP_MAX_SPEED_ATTRIBUTE]: bad }, 20)).toBe(20);
  });

  it('engine stops are the type and the saved commands standing in for it', () => {
    expect(isEngineStop({ type: 'engineStop', attributes: {} })).toBe(true);
    expect(isEngineStop({ type: 'custom', attributes: { 'tarkan.changeNative': 'engineStop' } })).toBe(true);
    expect(isEngineStop({ type: 'engineResume', attributes: {} })).toBe(false);
    expect(isEngineStop({ type: 'custom', attributes: { data: 'engineStop' } })).toBe(false);
  });
});
