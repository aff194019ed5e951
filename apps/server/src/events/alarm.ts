// alarm: one event per value of the comma-separated `alarm` attribute; with
// `event.ignoreDuplicateAlerts` (default true) values the previous position already carried
// are skipped, so a device repeating "sos" on every report raises it once.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { positionEvent } from './event.ts';

/** The distinct, trimmed, non-empty values of an `alarm` attribute. */
export function alarmValues(value: unknown): string[] {
  if (typeof value !== 'string' || value === '') return [];
  const out: string[] = [];
  for (const part of value.split(',')) {
    const v = part.trim();
    if (v !== '' && !out.includes(v)) out.push(v);
  }
  return out;
}

export function alarmEvents(out: EventDraft[], position: PositionDraft, previous: PositionDraft | null, ignoreDuplicates: boolean): void {
  const raw = position.attributes.alarm;
  if (raw === undefined) return;
  const values = alarmValues(raw);
  if (values.length === 0) return;
  const old = ignoreDuplicates && previous ? alarmValues(previous.attributes.alarm) : [];
  for (const alarm of values) {
    if (!old.includes(alarm)) out.push(positionEvent('alarm', position, { alarm }));
  }
}
