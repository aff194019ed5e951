// The map's vehicle worker: holds every vehicle's latest point (VehicleIndex) and answers with
// what the current view has to draw. Updates and view changes are applied as they come; the
// pass runs once the message queue is drained (a burst of socket batches costs one pass), and
// its typed arrays are transferred back, not copied.
import { VehicleHost } from './vehicle-host.ts';
import type { ToWorker, FromWorker } from './vehicle-protocol.ts';

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const host = new VehicleHost();
let scheduled = false;

function pass(): void {
  scheduled = false;
  const message = host.pass();
  if (!message) return;
  const { items } = message;
  scope.postMessage(message, [items.x.buffer, items.y.buffer, items.count.buffer, items.id.buffer, items.online.buffer]);
}

scope.onmessage = (e) => {
  host.apply(e.data);
  if (!scheduled) {
    scheduled = true;
    setTimeout(pass, 0);
  }
};
