// Decides whether the position becomes the device's latest: only when its fix is not older
// than the latest one, and not dated further ahead of the server than `filter.future` allows.
// Older positions (history uploads, reordered bursts) and fixes from a device clock set in the
// future are stored but neither move devices.positionId nor reach the sockets. (Traccar drops
// future fixes; keeping them lets the device's clock check show the offset, and nothing is lost
// if the clock was right after all.)
import type { Step } from '../work.ts';
import { DEFAULT_CLOCK_SETTINGS, type ClockSettingsOf } from './clock-settings.ts';

export function orderStep(settingsOf: ClockSettingsOf): Step {
  return {
    name: 'order',
    run(work) {
      const p = work.position;
      if (p.fixTime > work.now + settingsOf(work.entry).futureMs) {
        work.latest = false;
        return;
      }
      work.latest = work.previous === null || p.fixTime >= work.previous.fixTime;
    },
  };
}

/** The rule with the built-in tolerance (pipelines without settings, tests). */
export const order: Step = orderStep(() => DEFAULT_CLOCK_SETTINGS);
