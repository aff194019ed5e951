// commandResult: a position carrying the device's answer to a command (`result` attribute).
// Like Traccar, this one is raised for out-of-order positions too (the answer is news whenever it arrives).
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

export function commandResultEvent(out: EventDraft[], position: PositionDraft): void {
  const result = position.attributes.result;
  if (result === undefined || result === null || result === '') return;
  out.push(positionEvent('commandResult', position, { result: typeof result === 'string' ? result : String(result) }));
}
