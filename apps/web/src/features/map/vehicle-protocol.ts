// Messages between the devices layer (main thread) and vehicle-worker.ts, and the same
// index run in-thread where workers are missing (unit tests, very old browsers).
import type { ViewItems, ViewQuery } from './vehicle-cluster.ts';
import { VehicleHost } from './vehicle-host.ts';

export type ToWorker =
  | { type: 'update'; seq: number; ids: Int32Array; x: Float64Array; y: Float64Array; flags: Uint8Array; remove?: Int32Array }
  | { type: 'view'; viewSeq: number; view: ViewQuery }
  | { type: 'clear'; seq: number };

/** `seq`: the last update applied; `viewSeq`: the view the items are for; `ms`: the pass's time. */
export type FromWorker = { type: 'items'; seq: number; viewSeq: number; items: ViewItems; ms: number };

export interface VehicleChannel {
  post(message: ToWorker, transfer?: Transferable[]): void;
  onItems: ((message: FromWorker) => void) | null;
  terminate(): void;
}

/** The vehicle worker, or the index in this thread when workers cannot be made. */
export function openVehicleChannel(): VehicleChannel {
  if (typeof Worker !== 'undefined') {
    try {
      const worker = new Worker(new URL('./vehicle-worker.ts', import.meta.url), { type: 'module', name: 'rastro-vehicles' });
      const channel: VehicleChannel = {
        post: (message, transfer = []) => worker.postMessage(message, transfer),
        onItems: null,
        terminate: () => worker.terminate(),
      };
      worker.onmessage = (e: MessageEvent<FromWorker>) => channel.onItems?.(e.data);
      return channel;
    } catch (error) {
      console.warn('map: no vehicle worker, clustering in the page', error);
    }
  }
  return localChannel();
}

/** Same protocol, same index, in this thread (answers in a macrotask, like the worker). */
export function localChannel(): VehicleChannel {
  const host = new VehicleHost();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const channel: VehicleChannel = {
    post(m) {
      host.apply(m);
      timer ??= setTimeout(() => {
        timer = null;
        if (closed) return;
        const message = host.pass();
        if (message) channel.onItems?.(message);
      }, 0);
    },
    onItems: null,
    terminate() {
      closed = true;
    },
  };
  return channel;
}
