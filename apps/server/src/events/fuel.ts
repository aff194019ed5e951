// deviceFuelDrop / deviceFuelIncrease: the `fuel` attribute changed between consecutive
// positions by at least `fuelDropThreshold` / `fuelIncreaseThreshold` (device -> groups ->
// server attributes; 0 = off). Attributes `before`, `after`.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { asNumber, positionEvent } from './event.ts';

export function fuelEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null, dropThreshold: number, increaseThreshold: number): void {
  if (!previous || (dropThreshold <= 0 && increaseThreshold <= 0)) return;
  const after = asNumber(position.attributes.fuel);
  if (after === undefined) return;
  const before = asNumber(previous.attributes.fuel);
  if (before === undefined) return;
  if (dropThreshold > 0 && before - after >= dropThreshold) out.push(positionEvent('deviceFuelDrop', position, { before, after }));
  else if (increaseThreshold > 0 && after - before >= increaseThreshold) out.push(positionEvent('deviceFuelIncrease', position, { before, after }));
}
