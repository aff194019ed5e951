// An event raised by a processing step (the events engine adds these to `Work.events`); the
// writer stores it in the same transaction as its position, with that position's id.

export interface EventDraft {
  type: string;
  eventTime: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: Record<string, unknown>;
  /**
   * The event's position when it is not the one being processed (motion events are back-dated):
   * a draft of the same flush (found by identity) or a stored position (its id), motion-write.ts positionRef.
   */
  position?: { readonly id: number | null };
  /** Set by the writer once stored. */
  id: number | null;
}
