// Driving behaviour (reference A.5, "alarm (behavior)"): acceleration between consecutive
// positions = Δspeed (m/s) / Δt (s of fixTime). At or over event.behavior.accelerationThreshold
// -> alarm `hardAcceleration`; at or under −event.behavior.brakingThreshold -> alarm
// `hardBraking` (m/s²; 0 = off, the default).
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

const MPS_PER_KNOT = 1852 / 3600;

export function behaviorEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null, accelerationThreshold: number, brakingThreshold: number): void {
  if (!previous || (accelerationThreshold <= 0 && brakingThreshold <= 0)) return;
  const seconds = (position.fixTime - previous.fixTime) / 1000;
  if (seconds <= 0) return;
  const acceleration = ((position.speed - previous.speed) * MPS_PER_KNOT) / seconds;
  if (accelerationThreshold > 0 && acceleration >= accelerationThreshold) out.push(positionEvent('alarm', position, { alarm: 'hardAcceleration' }));
  else if (brakingThreshold > 0 && acceleration <= -brakingThreshold) out.push(positionEvent('alarm', position, { alarm: 'hardBraking' }));
}
