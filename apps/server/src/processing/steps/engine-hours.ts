// Engine hours (Traccar's step 16): for devices that do not report `hours` themselves, the
// counter grows by the deviceTime elapsed between two positions that both have ignition on,
// starting from the previous position's `hours`. A device that reports `ignition` at all
// carries the counter from its first position (0 until the engine runs), so a summary period
// has engine hours at both ends and its average speed (distance / engine hours) is not 0.
// Out-of-order positions keep the latest counter without adding, so it never runs backwards.
import type { Step } from '../work.ts';

export const engineHours: Step = {
  name: 'engine-hours',
  run(work) {
    const attrs = work.position.attributes;
    if (attrs.hours !== undefined) return;
    const prev = work.previous;
    const base = prev && typeof prev.attributes.hours === 'number' && Number.isFinite(prev.attributes.hours) ? prev.attributes.hours : null;
    let hours = base;
    if (work.latest && prev && prev.attributes.ignition === true && attrs.ignition === true) {
      const elapsed = work.position.deviceTime - prev.deviceTime;
      if (elapsed > 0) hours = (base ?? 0) + elapsed;
    }
    if (hours === null && typeof attrs.ignition === 'boolean') hours = 0;
    if (hours !== null) attrs.hours = hours;
  },
};
