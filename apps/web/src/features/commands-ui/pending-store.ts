// Against a Traccar server (no command lifecycle: its send answers carry no `commandLog`),
// commands answered 202 (queued) are pending until the device reports. A `queuedCommandSent`
// event for the device, or a position received after the send, marks it delivered. A Rastro
// server's lifecycle (command-lifecycle.tsx) replaces this notice.
import { create } from 'zustand';
import type { Event, Position } from '@rastro/domain/entities';

export interface PendingCommand {
  deviceId: number;
  /** i18n key of what was sent (lock, unlock or the command type label). */
  label: string;
  at: number;
  state: 'pending' | 'delivered' | 'sent';
  deliveredAt?: number;
}

interface PendingState {
  byDevice: Record<number, PendingCommand>;
}

export const usePending = create<PendingState>(() => ({ byDevice: {} }));

export function recordSent(deviceId: number, label: string, queued: boolean, at = Date.now()): void {
  usePending.setState((s) => ({ byDevice: { ...s.byDevice, [deviceId]: { deviceId, label, at, state: queued ? 'pending' : 'sent' } } }));
}

export function clearPending(deviceId: number): void {
  usePending.setState((s) => {
    const next = { ...s.byDevice };
    delete next[deviceId];
    return { byDevice: next };
  });
}

const ms = (v: string | undefined | null) => (v ? Date.parse(v) : NaN);

/** True when this event or position shows the queued command reached the device. */
export function deliveredBy(p: PendingCommand, events: readonly Event[], position: Position | undefined): number | null {
  for (const e of events) {
    if (e.deviceId === p.deviceId && e.type === 'queuedCommandSent' && ms(e.eventTime) >= p.at - 1000) return ms(e.eventTime);
  }
  if (position && ms(position.serverTime) > p.at) return ms(position.serverTime);
  return null;
}

export function markDelivered(deviceId: number, at: number): void {
  usePending.setState((s) => {
    const p = s.byDevice[deviceId];
    if (!p || p.state !== 'pending') return s;
    return { byDevice: { ...s.byDevice, [deviceId]: { ...p, state: 'delivered', deliveredAt: at } } };
  });
}
