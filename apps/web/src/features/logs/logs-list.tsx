// The log entries as a virtualised list (thousands of rows stay smooth): a row per entry, of
// varying height (an edit lists its changes), measured as it is drawn. Sort buttons for date,
// user and IP head the columns; on a phone each entry is a small card.
import { useRef } from 'react';
import { Badge } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/use-translation.ts';
import { changeValue } from './describe-row.ts';
import type { LogEntry, LogSort, LogSortKey } from './log-entries.ts';

const SORTABLE: readonly LogSortKey[] = ['date', 'user', 'ip'];

export function LogsHeader({ sort, onSort }: { sort: LogSort; onSort(key: LogSortKey): void }) {
  const { t } = useTranslation();
  const label = (key: LogSortKey) => {
    const column = t(`logs.columns.${key}`);
    if (sort.key !== key) return t('logs.sortBy', { column });
    return t(sort.direction === 'asc' ? 'logs.sortedAsc' : 'logs.sortedDesc', { column });
  };
  return (
    <div className="lg-head" role="group" aria-label={t('logs.sortGroup')}>
      {SORTABLE.map((key) => (
        <button key={key} type="button" className={`lg-sort lg-col-${key}`} aria-label={label(key)} onClick={() => onSort(key)}
          aria-pressed={sort.key === key} data-testid={`logs-sort-${key}`}>
          {t(`logs.columns.${key}`)}
          {sort.key === key && <span aria-hidden="true">{sort.direction === 'asc' ? ' ▲' : ' ▼'}</span>}
        </button>
      ))}
      <span className="lg-label lg-col-agent">{t('logs.columns.agent')}</span>
      <span className="lg-label lg-col-description">{t('logs.columns.description')}</span>
    </div>
  );
}

export function LogsList({ entries, dateText }: { entries: readonly LogEntry[]; dateText(ms: number): string }) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    getItemKey: (i) => entries[i]!.row.id,
    overscan: 6,
  });
  return (
    <div ref={scrollRef} className="lg-scroll" tabIndex={0} role="region" aria-label={t('logs.list')} data-testid="logs-list">
      <div role="list" className="lg-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const entry = entries[item.index]!;
          return (
            <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} role="listitem" className="lg-row"
              style={{ transform: `translateY(${item.start}px)` }} data-testid="logs-row" data-code={entry.row.code}>
              <span className="lg-col-date"><time dateTime={entry.row.created_at}>{Number.isFinite(entry.at) ? dateText(entry.at) : entry.row.created_at}</time></span>
              <span className="lg-col-user">{entry.user}</span>
              <span className="lg-col-ip">{entry.ip || '—'}</span>
              <span className="lg-col-agent" title={entry.row.userAgent ?? undefined}>{entry.agent || t('logs.unknownAgent')}</span>
              <div className="lg-col-description">
                <span className="lg-text">{entry.text}</span>
                {entry.failed && entry.row.status !== null && (
                  <Badge color="red.9" variant="outline" size="sm" ml={6}>{t('logs.refused', { status: entry.row.status })}</Badge>
                )}
                {entry.changes.length > 0 && (
                  <ul className="lg-changes" aria-label={t('logs.diff.label')}>
                    {entry.changes.map((change) => (
                      <li key={change.field}>
                        {t('logs.diff.change', { field: change.field, before: changeValue(change.before, t), after: changeValue(change.after, t) })}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
