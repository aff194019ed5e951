// An event raised by a processing step (the events engine adds these to `Work.events`); the
// writer stores it in the same transaction as its position, with that position's id.
import type { PositionDraft } from './position-draft.ts';

export interface EventDraft {
  type: string;
  eventTime: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: Record<string, unknown>;
  /** The event's position when it is not the one being processed (motion events are back-dated). */
  position?: PositionDraft;
  /** Set by the writer once stored. */
  id: number | null;
}
