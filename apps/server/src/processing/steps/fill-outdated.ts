// A message without a fix (only battery, cells, …) reuses the device's last known fix, as
// Traccar does; with none known it gets the GPS epoch and no coordinates, marked invalid.
import type { Step } from '../work.ts';

/** 1980-01-06T00:00:00Z, Traccar's "no fix ever" time. */
export const GPS_EPOCH_MS = Date.UTC(1980, 0, 6);

export const fillOutdated: Step = {
  name: 'fill-outdated',
  run(work) {
    const p = work.position;
    if (!p.outdated) return;
    const last = work.previous;
    if (last) {
      p.fixTime = last.fixTime;
      p.valid = last.valid;
      p.latitude = last.latitude;
      p.longitude = last.longitude;
      p.altitude = last.altitude;
      p.speed = last.speed;
      p.course = last.course;
      p.accuracy = last.accuracy;
    } else {
      p.fixTime = GPS_EPOCH_MS;
      p.valid = false;
      p.latitude = 0;
      p.longitude = 0;
    }
  },
};
