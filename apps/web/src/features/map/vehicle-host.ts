// What the vehicle worker does with the messages it gets, as one object: the worker
// (vehicle-worker.ts) and the in-page fallback (vehicle-protocol.ts localChannel) both run it.
import { VehicleIndex, type ViewQuery } from './vehicle-cluster.ts';
import type { FromWorker, ToWorker } from './vehicle-protocol.ts';

export class VehicleHost {
  private readonly index = new VehicleIndex();
  private view: ViewQuery | null = null;
  private viewSeq = 0;
  private seq = 0;

  /** Applies an update, a view change or a clear; the answer comes from the next pass. */
  apply(m: ToWorker): void {
    if (m.type === 'update') {
      if (m.remove) this.index.remove(m.remove);
      this.index.upsert(m.ids, m.x, m.y, m.flags);
      this.seq = m.seq;
    } else if (m.type === 'view') {
      this.view = m.view;
      this.viewSeq = m.viewSeq;
    } else {
      this.index.clear();
      this.seq = m.seq;
    }
  }

  /** What the current view has to draw; null before the first view. */
  pass(): FromWorker | null {
    if (!this.view) return null;
    const started = performance.now();
    const items = this.index.query(this.view);
    return { type: 'items', seq: this.seq, viewSeq: this.viewSeq, items, ms: performance.now() - started };
  }
}
