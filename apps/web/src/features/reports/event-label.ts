// An event's name for people: the notification type's text, and for alarms the alarm's own
// text (spec §9 lists both), falling back to the raw key for types we have no text for.
import type { TFunction } from '../../i18n/translator.ts';
import type { Event } from '@rastro/domain/entities';

export function eventLabel(t: TFunction, e: Pick<Event, 'type' | 'attributes'>): string {
  const type = t(`events.types.${e.type}`, { defaultValue: e.type });
  const alarm = e.type === 'alarm' ? e.attributes?.alarm : undefined;
  if (typeof alarm === 'string' && alarm) {
    const names = alarm.split(',').map((a) => t(`events.alarms.${a.trim()}`, { defaultValue: a.trim() }));
    return `${type}: ${names.join(', ')}`;
  }
  return type;
}
