// One schedule of the calendar editor: start and end (wall time in the calendar's zone), repeat,
// the weekdays of a weekly one, and when it stops (never, after N occurrences, on a day).
import { Checkbox, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { MAX_COUNT, REPEATS, EXPIRIES, WEEKDAYS, type CalendarSchedule, type Expiry, type Repeat, type Weekday } from '@rastro/domain/calendar-form';
import { useTranslation } from '../../i18n/use-translation.ts';
import { ERROR_PROPS } from '../../ui/collection/editor-dialog.tsx';

/** Monday first, as people read a week in the three languages. */
const WEEK_ORDER: Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

export interface ScheduleFieldsProps {
  index: number;
  value: CalendarSchedule;
  onChange(value: CalendarSchedule): void;
  /** The problem of one of its fields ('start', 'end', …), if any. */
  error(field: keyof CalendarSchedule): string | undefined;
}

export function ScheduleFields({ index, value, onChange, error }: ScheduleFieldsProps) {
  const { t } = useTranslation();
  const set = <K extends keyof CalendarSchedule>(field: K, v: CalendarSchedule[K]) => onChange({ ...value, [field]: v });
  const day = Number(value.start.slice(8, 10));
  // Turning weekly on starts from the start's own weekday, as people expect.
  const repeat = (r: Repeat) => {
    const weekday = WEEKDAYS[new Date(`${value.start.slice(0, 10)}T00:00:00Z`).getUTCDay()];
    onChange({ ...value, repeat: r, weekdays: r === 'weekly' && value.repeat !== 'weekly' && weekday ? [weekday] : value.weekdays });
  };
  const id = `calendar-schedule-${index}`;
  return (
    <div className="cal-schedule-fields">
      <Group grow gap="sm" align="flex-start" className="cal-row">
        <TextInput type="datetime-local" label={t('calendars.editor.start')} value={value.start} required
          onChange={(e) => set('start', e.currentTarget.value)} error={error('start')} errorProps={ERROR_PROPS} data-testid={`${id}-start`} />
        <TextInput type="datetime-local" label={t('calendars.editor.end')} value={value.end} required
          onChange={(e) => set('end', e.currentTarget.value)} error={error('end')} errorProps={ERROR_PROPS} data-testid={`${id}-end`} />
      </Group>
      <Group grow gap="sm" align="flex-start" className="cal-row" mt="xs">
        <Select label={t('calendars.editor.repeat')} value={value.repeat} allowDeselect={false} comboboxProps={{ zIndex: 400 }}
          data={REPEATS.map((r) => ({ value: r, label: t(`calendars.editor.repeats.${r}`) }))}
          onChange={(v) => v && repeat(v as Repeat)} data-testid={`${id}-repeat`} />
        {value.repeat !== 'none' && (
          <Select label={t('calendars.editor.expiry')} value={value.expiry} allowDeselect={false} comboboxProps={{ zIndex: 400 }}
            data={EXPIRIES.map((e) => ({ value: e, label: t(`calendars.editor.expiries.${e}`) }))}
            onChange={(v) => v && set('expiry', v as Expiry)} data-testid={`${id}-expiry`} />
        )}
      </Group>
      {value.repeat === 'weekly' && (
        <Checkbox.Group label={t('calendars.editor.weekdays')} mt="xs" value={value.weekdays}
          onChange={(days) => set('weekdays', WEEKDAYS.filter((d) => days.includes(d)))} error={error('weekdays')} errorProps={ERROR_PROPS}>
          <Group gap="sm" mt={4}>
            {WEEK_ORDER.map((d) => <Checkbox key={d} value={d} label={t(`calendars.editor.days.${d}`)} />)}
          </Group>
        </Checkbox.Group>
      )}
      {value.repeat === 'monthly' && Number.isFinite(day) && <p className="cal-hint">{t('calendars.editor.monthly', { day })}</p>}
      {value.repeat !== 'none' && value.expiry === 'count' && (
        <NumberInput label={t('calendars.editor.count')} mt="xs" min={1} max={MAX_COUNT} allowDecimal={false} value={value.count}
          onChange={(v) => set('count', typeof v === 'number' ? v : Number.NaN)} error={error('count')} errorProps={ERROR_PROPS} className="cal-short" />
      )}
      {value.repeat !== 'none' && value.expiry === 'until' && (
        <TextInput type="date" label={t('calendars.editor.until')} mt="xs" value={value.until}
          onChange={(e) => set('until', e.currentTarget.value)} error={error('until')} errorProps={ERROR_PROPS} className="cal-short" />
      )}
    </div>
  );
}
