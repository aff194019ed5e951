// ignitionOn / ignitionOff: the `ignition` attribute changes between two consecutive
// positions that both carry it.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { asBoolean, positionEvent } from './event.ts';

export function ignitionEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null): void {
  if (!previous) return;
  const now = asBoolean(position.attributes.ignition);
  if (now === undefined) return;
  const before = asBoolean(previous.attributes.ignition);
  if (before === undefined || before === now) return;
  out.push(positionEvent(now ? 'ignitionOn' : 'ignitionOff', position));
}
