// Corrects fixes dated by the device's own clock (`clock: 'device'`: GT06, H02 and other
// protocols whose dates carry no zone) with the device's `decoder.timezone`, before anything
// compares times. Trackers are often set to local time; without the setting the dates are
// read as UTC, as Traccar does.
import type { Step } from '../work.ts';
import { wallClockToUtc } from '../../device-clock/time-zone.ts';
import type { ClockSettingsOf } from './clock-settings.ts';

export function deviceClockStep(settingsOf: ClockSettingsOf): Step {
  return {
    name: 'device-clock',
    run(work) {
      const p = work.position;
      if (p.clock !== 'device') return;
      const zone = settingsOf(work.entry).zone;
      if (zone) {
        // An outdated message's fixTime is replaced later by the last fix's (fill-outdated).
        p.deviceTime = wallClockToUtc(p.deviceTime, zone);
        p.fixTime = wallClockToUtc(p.fixTime, zone);
      }
      p.clock = 'utc';
    },
  };
}
