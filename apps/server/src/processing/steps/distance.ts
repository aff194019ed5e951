// `distance` (metres since the previous position) and the server odometer `totalDistance`.
// A device-reported `distance` is kept. Out-of-order positions do not move the odometer:
// they get distance 0 and the latest total, so the running total stays monotonic. Full
// precision, as Traccar: rounding every step made long totals drift from Traccar's.
import { haversineMeters } from '../haversine.ts';
import type { Step } from '../work.ts';

export const distance: Step = {
  name: 'distance',
  run(work) {
    const p = work.position;
    const prev = work.previous;
    const prevTotal = prev && typeof prev.attributes.totalDistance === 'number' ? prev.attributes.totalDistance : 0;
    let meters = 0;
    if (work.latest && prev) {
      const reported = p.attributes.distance;
      meters = typeof reported === 'number' && Number.isFinite(reported)
        ? reported
        : haversineMeters(prev.latitude, prev.longitude, p.latitude, p.longitude);
    }
    p.attributes.distance = meters;
    p.attributes.totalDistance = prevTotal + meters;
  },
};
