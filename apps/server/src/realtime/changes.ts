// What REST writes tell the rest of the server: object changes that caches (the ingest
// device cache) and the socket hub (audiences, {devices} pushes) must follow. With several
// instances the realtime bus relays them, so every instance hears every change.

export type Change =
  | { kind: 'device'; id: number }
  | { kind: 'deviceRemoved'; id: number }
  | { kind: 'group'; id: number }
  | { kind: 'user'; id: number }
  | { kind: 'userRemoved'; id: number }
  /** A permission link was added or removed: audiences must be recomputed. */
  | { kind: 'permissions' }
  /** A command was queued for device `id` (instances mark it to hand the command over on its next message). */
  | { kind: 'commandQueued'; id: number }
  /** Geofence `id` was created, changed or deleted (the events engine's geofence cache reloads it). */
  | { kind: 'geofence'; id: number }
  /** The server row (its attributes: speedLimit, fuel thresholds…) changed; `id` is the row's id. */
  | { kind: 'server'; id: number }
  /**
   * A stored object of the entity resources (resources/) was created, changed or deleted. No
   * one listens yet: the engines that will read these objects (calendar checks, maintenance
   * sources, computed attributes, notification matching) reload their caches on it.
   */
  | { kind: EntityChangeKind; id: number };

export const ENTITY_CHANGE_KINDS = ['calendar', 'driver', 'maintenance', 'computedAttribute', 'notification'] as const;
export type EntityChangeKind = (typeof ENTITY_CHANGE_KINDS)[number];

type Listener = (change: Change) => void;

export class Changes {
  private readonly listeners: Listener[] = [];

  on(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Set by the realtime bus to carry changes to other instances. */
  relay: ((change: Change) => void) | null = null;

  /** A change made here: tell local listeners and the other instances. */
  publish(change: Change): void {
    this.deliver(change);
    this.relay?.(change);
  }

  /** Delivers to local listeners only (the bus calls this for changes from other instances). */
  deliver(change: Change): void {
    for (const l of [...this.listeners]) l(change);
  }
}
