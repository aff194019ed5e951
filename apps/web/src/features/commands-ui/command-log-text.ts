// What the device detail says about one command of its lifecycle (pure, tested): its label,
// the steps reached with their times, and the line explaining where it stands.
import type { TFunction } from '../../i18n/translator.ts';
import { isInFlight, nativeAction, UNCONFIRMED, type CommandLogEntry, type CommandStatus } from '@rastro/domain/command-log';

/** Lock and unlock by their button's name (a saved command standing in for them adds its description). */
export function commandLabel(entry: Pick<CommandLogEntry, 'type' | 'attributes' | 'description'>, t: TFunction): string {
  const action = nativeAction(entry);
  const description = entry.description?.trim() || null;
  if (action === 'engineStop' || action === 'engineResume') {
    const name = t(action === 'engineStop' ? 'device.actions.lock' : 'device.actions.unlock');
    return description && description !== name ? `${name} (${description})` : name;
  }
  return description ?? t(`device.commandTypes.${entry.type}`, { defaultValue: entry.type });
}

export interface Step {
  step: CommandStatus;
  at: string;
}

/**
 * The steps reached with their times, in the order they happened (a command written at once was
 * never queued). A reply can come after the position that confirmed the effect: it is then listed
 * after the confirmation; steps at the same instant keep the lifecycle's order.
 */
export function commandSteps(entry: CommandLogEntry): Step[] {
  const steps: Step[] = [];
  if (entry.sentTime === null || entry.sentTime !== entry.createdTime) steps.push({ step: 'queued', at: entry.createdTime });
  if (entry.sentTime) steps.push({ step: 'sent', at: entry.sentTime });
  if (entry.acknowledgedTime) steps.push({ step: 'acknowledged', at: entry.acknowledgedTime });
  if (entry.confirmedTime) steps.push({ step: 'confirmed', at: entry.confirmedTime });
  if (entry.failedTime) steps.push({ step: 'failed', at: entry.failedTime });
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** i18n key (under device.commandLog) of the line saying why it waits, what it waits for, or why it failed. */
export function commandDetailKey(entry: CommandLogEntry): string | null {
  switch (entry.status) {
    case 'queued':
      return `reason.${entry.reason ?? 'offline'}`;
    case 'sent':
      return 'awaitingReply';
    case 'acknowledged':
      if (entry.reason === UNCONFIRMED) return `reason.${UNCONFIRMED}`;
      return isInFlight(entry) ? 'awaitingEffect' : null;
    case 'failed':
      return `reason.${entry.reason ?? 'timeout'}`;
    default:
      return null;
  }
}

/** A step's time: the time of day, with the date when it is not today. */
export function stepTime(iso: string, language: string, now = Date.now()): string {
  const date = new Date(iso);
  const time = date.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return date.toDateString() === new Date(now).toDateString() ? time : `${date.toLocaleDateString(language)} ${time}`;
}
