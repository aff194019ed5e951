// The map's vehicle worker: holds every vehicle's latest point (VehicleIndex) and answers with
// what the current view has to draw. Updates and view changes are applied as they come; the
// pass runs once the message queue is drained (a burst of socket batches costs one pass), and
// its typed arrays are transferred back, not copied.
import { VehicleIndex, type ViewQuery } from './vehicle-cluster.ts';
import type { ToWorker, FromWorker } from './vehicle-protocol.ts';

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const index = new VehicleIndex();
let view: ViewQuery | null = null;
let viewSeq = 0;
let seq = 0;
let scheduled = false;

function pass(): void {
  scheduled = false;
  if (!view) return;
  const started = performance.now();
  const items = index.query(view);
  const message: FromWorker = { type: 'items', seq, viewSeq, items, ms: performance.now() - started };
  scope.postMessage(message, [items.x.buffer, items.y.buffer, items.count.buffer, items.id.buffer, items.online.buffer]);
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'update') {
    if (m.remove) index.remove(m.remove);
    index.upsert(m.ids, m.x, m.y, m.flags);
    seq = m.seq;
  } else if (m.type === 'view') {
    view = m.view;
    viewSeq = m.viewSeq;
  } else if (m.type === 'clear') {
    index.clear();
    seq = m.seq;
  }
  if (!scheduled) {
    scheduled = true;
    setTimeout(pass, 0);
  }
};
