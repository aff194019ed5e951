// `motion` = moving faster than 0.01 kn, unless the device said so itself (Traccar Client's
// `is_moving`). Trips, stops and motion events read this attribute.
import type { Step } from '../work.ts';

export const MOTION_SPEED_THRESHOLD_KNOTS = 0.01;

export const motion: Step = {
  name: 'motion',
  run(work) {
    const attrs = work.position.attributes;
    if (typeof attrs.motion !== 'boolean') attrs.motion = work.position.speed > MOTION_SPEED_THRESHOLD_KNOTS;
  },
};
