// The live feed: what the ingest pipeline stored and the sockets must show. The storage
// writer publishes one batch per flush (never one call per message) so fan-out work is
// batched too; the socket hub and the realtime bus (other instances) subscribe.
import type { Device, DeviceLogFrame, Event, Position } from '@rastro/domain/entities';

export interface LiveBatch {
  /** Devices whose status / lastUpdate / positionId changed. */
  devices?: Device[];
  /** Newly stored latest positions (out-of-order positions are never published). */
  positions?: Position[];
  /**
   * Events for the `web` notificator: each goes to the sockets of that one user (the event
   * carries its rendered `message` attribute already).
   */
  events?: UserEvent[];
  /**
   * Raw device frames for the sockets that asked for `{"logs": true}` (traccar-reference A.2),
   * published only while `LiveFeed.logsWanted` is true.
   */
  logs?: RawFrame[];
}

/** One frame as a device sent it, for the device log (the socket's `{logs}` item, @rastro/domain). */
export interface RawFrame extends DeviceLogFrame {
  /** Server time the frame arrived (epoch ms). */
  time: number;
}

export interface UserEvent {
  userId: number;
  event: Event;
}

type Subscriber = (batch: LiveBatch) => void;

export class LiveFeed {
  private readonly subscribers: Subscriber[] = [];

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const i = this.subscribers.indexOf(subscriber);
      if (i >= 0) this.subscribers.splice(i, 1);
    };
  }

  /** Some socket asked for raw device logs: ingest listeners publish frames only while this is true. */
  logsWanted = false;

  /** A batch produced on this instance; the bus relays it to the others. */
  relay: ((batch: LiveBatch) => void) | null = null;

  publish(batch: LiveBatch): void {
    this.deliver(batch);
    this.relay?.(batch);
  }

  /** Local delivery only (the bus calls this for batches from other instances). */
  deliver(batch: LiveBatch): void {
    for (const s of [...this.subscribers]) s(batch);
  }
}
