// media: a position carrying a file name in `image`, `video` or `audio` (a camera device's
// upload). Attributes `media` (which kind) and `file`. Like every event, only for
// positions that become the device's latest.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

const KINDS = ['image', 'video', 'audio'] as const;

export function mediaEvents(out: EventDraft[], position: PositionDraft): void {
  const attrs = position.attributes;
  for (const media of KINDS) {
    const file = attrs[media];
    if (typeof file === 'string' && file !== '') out.push(positionEvent('media', position, { media, file }));
  }
}
