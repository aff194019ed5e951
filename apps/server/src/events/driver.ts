// driverChanged: the position's `driverUniqueId` differs from the previous position's (also
// on its first appearance). Traccar's `processing.useLinkedDriver` (fill it from the device's
// linked driver) waits for drivers to exist: HOOK — when drivers/ lands, the step that fills
// `driverUniqueId` runs before this handler and nothing here changes.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export function driverEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null): void {
  const driverUniqueId = text(position.attributes.driverUniqueId);
  if (driverUniqueId === null) return;
  if (previous && text(previous.attributes.driverUniqueId) === driverUniqueId) return;
  out.push(positionEvent('driverChanged', position, { driverUniqueId }));
}
