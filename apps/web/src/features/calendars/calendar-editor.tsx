// The calendar editor (tarkan-reference §3.13.11) on the kit's EditorDialog: a name and one or
// more schedules, checked by calendarEditorSchema (packages/domain) and saved as the iCalendar
// text Traccar reads, base64 in `data`. A stored calendar the form cannot show exactly opens with
// its schedules read-only and is saved with its own data, untouched. The next five occurrences
// are previewed as the schedules are typed.
import { useMemo } from 'react';
import { Alert, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import type { Calendar } from '@rastro/domain/entities';
import { encodeCalendarData } from '@rastro/domain/icalendar';
import {
  calendarEditorSchema, calendarFormSchema, formatCalendar, MAX_COUNT, newSchedule, nextOccurrences, type CalendarForm, type CalendarSchedule,
} from '@rastro/domain/calendar-form';
import { useTranslation } from '../../i18n/use-translation.ts';
import { EditorDialog, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import type { IssueMessage } from '../../ui/collection/form-issues.ts';
import { NEW_ID } from '../../ui/collection/use-collection.ts';
import { calendarForm } from './calendar-rules.ts';
import { ScheduleFields } from './schedule-fields.tsx';

/** What the editor holds: the stored calendar and, when editable, its form. */
export interface CalendarDraft extends Calendar {
  form: CalendarForm | null;
}

export function draftOf(calendar: Calendar | null, zone: string, now: number): CalendarDraft {
  if (!calendar) return { id: NEW_ID, name: '', data: '', attributes: {}, form: { timeZone: zone, schedules: [newSchedule(now, zone)] } };
  return { ...calendar, form: calendarForm(calendar) };
}

/** The calendar sent to the server: a changed form is written anew, anything else keeps its data. */
export function calendarToSave(draft: CalendarDraft, name: string): Calendar {
  const original = draft.id > 0 ? calendarForm(draft) : null;
  const unchanged = draft.form === null || (original !== null && JSON.stringify(original) === JSON.stringify(draft.form));
  const data = unchanged && draft.data ? draft.data : encodeCalendarData(formatCalendar(draft.form!));
  return { id: draft.id, name, data, attributes: draft.attributes ?? {} };
}

const SCHEDULE_FIELD = /^form\.schedules\.(\d+)\.(\w+)$/;

function Preview({ form }: { form: CalendarForm }) {
  const { t, i18n } = useTranslation();
  const valid = calendarFormSchema.safeParse(form).success;
  const occurrences = useMemo(() => (valid ? nextOccurrences(form, Date.now(), 5) : []), [form, valid]);
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: form.timeZone });
  return (
    <section className="cal-preview" aria-labelledby="cal-preview-title" data-testid="calendar-preview">
      <h3 id="cal-preview-title" className="cal-preview-title">{t('calendars.editor.preview')}</h3>
      {!valid && <Text size="sm" c="gray.8">{t('calendars.editor.previewInvalid')}</Text>}
      {valid && occurrences.length === 0 && <Text size="sm" c="gray.8">{t('calendars.editor.previewEmpty')}</Text>}
      {occurrences.length > 0 && (
        <ol className="cal-preview-list">
          {occurrences.map((o) => <li key={`${o.start}-${o.end}`}>{format.formatRange(new Date(o.start), new Date(o.end))}</li>)}
        </ol>
      )}
    </section>
  );
}

function Schedules({ form: editor }: { form: EditorForm<CalendarDraft> }) {
  const { t } = useTranslation();
  const form = editor.values.form!;
  const setSchedules = (schedules: CalendarSchedule[]) => editor.set('form', { ...form, schedules });
  const listError = editor.error('form');
  return (
    <>
      <Text size="sm" c="gray.8" mt="xs">{t('calendars.editor.zone', { zone: form.timeZone })}</Text>
      <Stack gap="sm" mt="xs">
        {form.schedules.map((s, i) => (
          <Fieldset key={i} legend={t('calendars.editor.schedule', { n: i + 1 })} className="cal-schedule" data-testid="calendar-schedule">
            <ScheduleFields index={i} value={s} error={(field) => editor.error(`form.schedules.${i}.${field}`)}
              onChange={(next) => setSchedules(form.schedules.map((old, j) => (j === i ? next : old)))} />
            {form.schedules.length > 1 && (
              <Button variant="subtle" color="red" c="red.9" size="compact-sm" mt="xs" onClick={() => setSchedules(form.schedules.filter((_, j) => j !== i))}>
                {t('calendars.editor.removeSchedule', { n: i + 1 })}
              </Button>
            )}
          </Fieldset>
        ))}
      </Stack>
      {listError && <Text size="sm" mt="xs" style={{ color: '#b42318' }} role="alert">{listError}</Text>}
      <Group mt="sm">
        <Button variant="light" size="sm" onClick={() => setSchedules([...form.schedules, newSchedule(Date.now(), form.timeZone)])}>
          {t('calendars.editor.addSchedule')}
        </Button>
      </Group>
      <Preview form={form} />
    </>
  );
}

export interface CalendarEditorProps {
  draft: CalendarDraft | null;
  onSave(calendar: Calendar): Promise<unknown>;
  onClose(): void;
}

export function CalendarEditor({ draft, onSave, onClose }: CalendarEditorProps) {
  const { t } = useTranslation();
  const issueMessage: IssueMessage = (field) => {
    if (field === 'form') return t('calendars.errors.noSchedule');
    const m = SCHEDULE_FIELD.exec(field);
    if (!m) return undefined;
    const messages: Record<string, string> = {
      end: t('calendars.errors.endBeforeStart'),
      weekdays: t('calendars.errors.weekdays'),
      until: t('calendars.errors.until'),
      count: t('calendars.errors.count', { max: MAX_COUNT }),
    };
    return messages[m[2]!];
  };
  if (!draft) return null;
  return (
    <EditorDialog<CalendarDraft, unknown>
      opened
      initial={draft}
      schema={calendarEditorSchema}
      title={{ create: t('calendars.editor.create'), edit: t('calendars.editor.edit') }}
      issueMessage={issueMessage}
      onSave={(values) => onSave(calendarToSave(values, values.name.trim()))}
      onClose={onClose}
    >
      {(form) => (
        <>
          <TextInput label={t('calendars.editor.name')} required data-autofocus {...form.text('name')} />
          <h3 className="cal-section">{t('calendars.editor.schedules')}</h3>
          {form.values.form ? <Schedules form={form} /> : (
            <Alert color="yellow" title={t('calendars.editor.readOnlyTitle')} data-testid="calendar-read-only" styles={{ title: { color: '#6b3e00' } }}>
              {t('calendars.editor.readOnly')}
            </Alert>
          )}
        </>
      )}
    </EditorDialog>
  );
}
