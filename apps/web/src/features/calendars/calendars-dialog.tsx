// The calendars manager (user menu "calendars", bit 88; shell dialog kind 'calendars'): the
// signed-in user's calendars in the kit's searchable list with each one's next occurrence, and
// under it add (89), edit (90) and delete (91) on the selected row. Spec §2 has no /calendars
// route, so the list and its editor live in a dialog over whatever screen is open.
import { useMemo, useState } from 'react';
import { Alert, Button, CloseButton, Group, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Calendar } from '@rastro/domain/entities';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import type { ShellDialogProps } from '../../app/shell/shell-dialogs-host.tsx';
import { CollectionList, type Column } from '../../ui/collection/collection-list.tsx';
import { useCollection } from '../../ui/collection/use-collection.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { calendarAbilities, calendarZone, nextStart } from './calendar-rules.ts';
import { CalendarEditor, draftOf, type CalendarDraft } from './calendar-editor.tsx';
import './calendars.css';

interface Notice {
  color: 'red' | 'green';
  text: string;
}

/** A calendar row with its next occurrence as text, so the search finds it too. */
type Row = Calendar & { next: string; nextAt: number | null };

export default function CalendarsDialog({ onClose }: ShellDialogProps<'calendars'>) {
  useTexts('calendars');
  const { t, i18n } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  const me = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const can = me ? calendarAbilities(me, { plus: info?.plus ?? false, attributes: info?.server.attributes, readonly: info?.server.readonly }) : null;
  const zone = calendarZone(me?.attributes, info?.server.attributes);
  const calendars = useCollection<Calendar>('calendars');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [draft, setDraft] = useState<CalendarDraft | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const rows = useMemo<Row[]>(() => {
    const now = Date.now();
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: zone });
    return calendars.items.map((c) => {
      const at = nextStart(c, now);
      const next = at === 'custom' ? t('calendars.custom') : at === null ? t('calendars.noNext') : format.format(at);
      return { ...c, next, nextAt: typeof at === 'number' ? at : null };
    });
  }, [calendars.items, i18n.language, zone, t]);
  const selected = rows.find((c) => c.id === selectedId) ?? null;

  const columns = useMemo<Column<Row>[]>(() => [
    { key: 'name', label: t('calendars.columns.name'), value: (c) => c.name },
    { key: 'next', label: t('calendars.columns.next'), value: (c) => c.nextAt ?? Number.MAX_SAFE_INTEGER, render: (c) => c.next },
  ], [t]);

  const choose = (row: Row) => {
    setSelectedId(row.id);
    setConfirming(false);
    setNotice(null);
  };
  const openEditor = (calendar: Calendar | null) => {
    setNotice(null);
    setConfirming(false);
    setDraft(draftOf(calendar, zone, Date.now()));
  };
  async function remove(calendar: Row) {
    setConfirming(false);
    try {
      await calendars.remove(calendar.id);
      setSelectedId(null);
      setNotice({ color: 'green', text: t('calendars.deleted', { name: calendar.name }) });
    } catch (err) {
      setNotice({ color: 'red', text: saveErrorText(t, err) });
    }
  }
  const save = async (calendar: Calendar) => {
    const stored = await calendars.save(calendar);
    setSelectedId(stored.id);
  };

  return (
    <>
      <Modal opened onClose={onClose} size="xl" fullScreen={mobile} zIndex={250} title={t('calendars.title')}
        closeButtonProps={{ 'aria-label': t('collection.close') }} classNames={{ body: 'cal-modal-body' }}>
        {!can?.list ? <Alert color="yellow" role="alert">{t('calendars.notAllowed')}</Alert> : (
          <div className="cal-manager" data-testid="calendars-dialog">
            <div className="cal-list">
              <CollectionList<Row>
                label={t('calendars.listLabel')}
                items={rows}
                state={calendars.state}
                error={calendars.error}
                onRetry={calendars.retry}
                columns={columns}
                onOpen={choose}
                selectedId={selectedId}
                initialSort={{ key: 'name', direction: 'asc' }}
                actions={can.add ? <Button size="sm" onClick={() => openEditor(null)}>{t('calendars.add')}</Button> : null}
              />
            </div>
            {notice && (
              <Alert className="cal-notice" color={notice.color} role={notice.color === 'red' ? 'alert' : 'status'} p="xs" data-testid="calendars-notice">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <span>{notice.text}</span>
                  <CloseButton size="sm" aria-label={t('calendars.dismiss')} onClick={() => setNotice(null)} />
                </Group>
              </Alert>
            )}
            {confirming && selected ? (
              <div className="cal-bar" role="alertdialog" aria-label={t('calendars.delete')}>
                <Text size="sm" className="cal-bar-text">{t('calendars.deleteConfirm', { name: selected.name })}</Text>
                <Group gap="xs">
                  <Button size="sm" variant="default" onClick={() => setConfirming(false)}>{t('calendars.deleteNo')}</Button>
                  <Button size="sm" color="red.9" onClick={() => void remove(selected)}>{t('calendars.deleteYes')}</Button>
                </Group>
              </div>
            ) : (can.edit || can.remove) && (
              <div className="cal-bar">
                <Text size="sm" className="cal-bar-text">{selected ? t('calendars.selected', { name: selected.name }) : t('calendars.noneSelected')}</Text>
                <Group gap="xs">
                  {can.edit && <Button size="sm" variant="light" disabled={!selected} onClick={() => selected && openEditor(selected)}>{t('calendars.edit')}</Button>}
                  {can.remove && <Button size="sm" variant="default" c="red.9" disabled={!selected} onClick={() => setConfirming(true)}>{t('calendars.delete')}</Button>}
                </Group>
              </div>
            )}
          </div>
        )}
      </Modal>
      <CalendarEditor draft={draft} onSave={save} onClose={() => setDraft(null)} />
    </>
  );
}
