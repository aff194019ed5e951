// The lifecycle of a command sent to a device, as Rastro stores and shows it (beyond Traccar,
// which only says "queued" or "sent"): queued → sent → acknowledged (the device's reply) →
// confirmed (a later position shows the effect), or failed. The server answers it on
// `GET /api/commands/log?deviceId=`; the device detail shows it.
import { CHANGE_NATIVE_ATTRIBUTE } from './commands.ts';

export const COMMAND_STATUSES = ['queued', 'sent', 'acknowledged', 'confirmed', 'failed'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/**
 * Why a command is still queued: the device is `offline`; it is online but only takes commands
 * with its `nextMessage` (HTTP devices such as OsmAnd, or a connection held by another
 * instance); or it is an engine stop held until the vehicle slows down (`speed`).
 */
export const QUEUED_REASONS = ['offline', 'nextMessage', 'speed'] as const;
export type QueuedReason = (typeof QUEUED_REASONS)[number];

/**
 * Why a command failed: no reply within the timeout after it was sent (`timeout`), a user
 * cancelled it while it was queued (`cancelled`), a later engine resume replaced a queued
 * engine stop (`superseded`: cutting the engine only to restore it is never wanted), or the
 * device's protocol cannot carry that command (`unsupported`).
 */
export const FAILED_REASONS = ['timeout', 'cancelled', 'superseded', 'unsupported'] as const;
export type FailedReason = (typeof FAILED_REASONS)[number];

/**
 * An acknowledged engine stop or resume whose effect no position showed within the timeout
 * after the reply: it stays acknowledged (the device did answer), and nothing is awaited any more.
 */
export const UNCONFIRMED = 'unconfirmed';

/** One command's lifecycle (`GET /api/commands/log`); times are ISO instants, null until reached. */
export interface CommandLogEntry {
  id: number;
  deviceId: number;
  /** Who sent it (null once that user is deleted). */
  userId: number | null;
  type: string;
  /** The saved command's description, when one was sent. */
  description: string | null;
  attributes: Record<string, unknown>;
  status: CommandStatus;
  /** While queued: a QueuedReason; once failed: a FailedReason; acknowledged but never confirmed: `unconfirmed`. */
  reason: QueuedReason | FailedReason | typeof UNCONFIRMED | null;
  createdTime: string;
  sentTime: string | null;
  acknowledgedTime: string | null;
  confirmedTime: string | null;
  failedTime: string | null;
  /** The device's reply text (its `commandResult`). */
  result: string | null;
}

/**
 * The native action a command performs: its type, or the action a saved command replaces
 * (`tarkan.changeNative`: a `custom` "RELAY,1#" saved as the lock is still an engine stop).
 */
export function nativeAction(command: { type: string; attributes: Record<string, unknown> }): string {
  const native = command.attributes[CHANGE_NATIVE_ATTRIBUTE];
  return typeof native === 'string' && native !== '' ? native : command.type;
}

/**
 * The `blocked` value a position shows once the command took effect: true after an engine
 * stop, false after an engine resume; undefined for actions no position attribute confirms
 * (for those, acknowledged is the last step).
 */
export function expectedBlocked(action: string): boolean | undefined {
  if (action === 'engineStop') return true;
  if (action === 'engineResume') return false;
  return undefined;
}

/** True while the entry may still change: queued, sent, or acknowledged and awaiting its confirmation. */
export function isInFlight(entry: Pick<CommandLogEntry, 'status' | 'reason' | 'type' | 'attributes'>): boolean {
  if (entry.status === 'queued' || entry.status === 'sent') return true;
  return entry.status === 'acknowledged' && entry.reason !== UNCONFIRMED && expectedBlocked(nativeAction(entry)) !== undefined;
}
