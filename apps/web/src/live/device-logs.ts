// Raw device frames from the live socket (`{logs}`, traccar-reference A.2). The server sends
// them only to sockets that asked with `{"logs": true}`, and formatting them costs its ingest
// listeners work, so the wish is on only while some view listens: the first listener turns it
// on, the last one off. The live session binds the socket (and asks again after a reconnect).
import type { DeviceLogFrame } from '@rastro/domain/entities';

type Listener = (frames: DeviceLogFrame[]) => void;

const listeners = new Set<Listener>();
let send: ((wanted: boolean) => void) | null = null;

/** Listens to raw frames until the returned function is called. */
export function subscribeDeviceLogs(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) send?.(true);
  return () => {
    if (!listeners.delete(listener)) return;
    if (listeners.size === 0) send?.(false);
  };
}

export const deviceLogsWanted = (): boolean => listeners.size > 0;

/**
 * The live session's socket: `sender(wanted)` tells the server. Called with null when the
 * session stops. The wish is sent at once when someone already listens.
 */
export function bindDeviceLogs(sender: ((wanted: boolean) => void) | null): void {
  send = sender;
  if (sender && listeners.size > 0) sender(true);
}

/** Frames from a `{logs}` message. */
export function deliverDeviceLogs(frames: DeviceLogFrame[]): void {
  for (const listener of [...listeners]) listener(frames);
}
