// Drops positions no one can use: coordinates that are not numbers or out of range (a
// decoder bug or a corrupt frame), and fixes dated more than a day ahead (Traccar's
// `filter.future` default). Outdated positions have no coordinates yet and pass.
import type { Step } from '../work.ts';

export const FUTURE_LIMIT_MS = 86_400_000;

export const filterInvalid: Step = {
  name: 'filter-invalid',
  run(work) {
    const p = work.position;
    if (!p.outdated) {
      if (!Number.isFinite(p.latitude) || p.latitude < -90 || p.latitude > 90) work.dropped = 'invalid latitude';
      else if (!Number.isFinite(p.longitude) || p.longitude < -180 || p.longitude > 180) work.dropped = 'invalid longitude';
    }
    if (p.fixTime > work.now + FUTURE_LIMIT_MS) work.dropped = 'fix time in the future';
  },
};
