// commandResult: a position carrying the device's answer to a command (`result` attribute).
// Raised for positions that become the latest only (the engine skips out-of-order ones).
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

export function commandResultEvent(out: EventDraft[], position: PositionDraft): void {
  const result = position.attributes.result;
  if (result === undefined || result === null || result === '') return;
  out.push(positionEvent('commandResult', position, { result: typeof result === 'string' ? result : String(result) }));
}
