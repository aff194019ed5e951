// Decides whether the position becomes the device's latest: only when its fix is not older
// than the latest one. Older positions (history uploads, reordered bursts) are stored but
// neither move devices.positionId nor reach the sockets.
import type { Step } from '../work.ts';

export const order: Step = {
  name: 'order',
  run(work) {
    work.latest = work.previous === null || work.position.fixTime >= work.previous.fixTime;
  },
};
