// Drops positions no one can use: coordinates that are not numbers or out of range (a
// decoder bug or a corrupt frame). Outdated positions have no coordinates yet and pass.
// Fixes dated in the future are kept (see order.ts: they never become the latest).
import type { Step } from '../work.ts';

export const filterInvalid: Step = {
  name: 'filter-invalid',
  run(work) {
    const p = work.position;
    if (p.outdated) return;
    if (!Number.isFinite(p.latitude) || p.latitude < -90 || p.latitude > 90) work.dropped = 'invalid latitude';
    else if (!Number.isFinite(p.longitude) || p.longitude < -180 || p.longitude > 180) work.dropped = 'invalid longitude';
  },
};
