// The searchable, sortable, virtualised list of a list-and-editor screen. The search matches
// any field or attribute (collection-search.ts); a column header sorts by it and flips on a
// second click. The rows are a listbox: ↑/↓/Home/End/PageUp/PageDown move, Enter opens, and
// only the rows on screen are in the DOM, so tens of thousands of users stay smooth. Columns
// marked `wide` are left out below 600 px so a 390 px phone shows the essential ones.
import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Alert, Button, Loader, TextInput } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/use-translation.ts';
import { errorText } from '../../api/error-text.ts';
import { filterItems, nextSort, sortItems, type SortState, type SortValue } from './collection-search.ts';
import type { CollectionState, Entity } from './use-collection.ts';
import './collection.css';

export interface Column<T> {
  key: string;
  label: string;
  /** The value sorted by (and shown, unless `render` is given). */
  value(item: T): SortValue;
  render?(item: T): ReactNode;
  /** Shown only from 600 px up. */
  wide?: boolean;
}

export interface CollectionListProps<T extends Entity> {
  /** Accessible name of the list (the screen's title, e.g. "Users"). */
  label: string;
  items: readonly T[];
  state: CollectionState;
  error?: unknown;
  onRetry?(): void;
  columns: Column<T>[];
  /** Enter or a click on a row. */
  onOpen?(item: T): void;
  /** Extra controls beside the search (e.g. "add"). */
  actions?: ReactNode;
  initialSort?: SortState;
  /**
   * The row the screen acts on (its toolbar's edit, delete…). When given, it is the row marked
   * selected, and the keyboard's position is only highlighted, so moving with the arrows never
   * changes what the toolbar acts on: Enter or a click does (through onOpen).
   */
  selectedId?: number | null;
}

export const ROW_HEIGHT = 44;

const shown = (value: SortValue, t: (key: string) => string): ReactNode =>
  typeof value === 'boolean' ? t(value ? 'collection.yes' : 'collection.no') : value ?? '';

export function CollectionList<T extends Entity>({ label, items, state, error, onRetry, columns, onOpen, actions, initialSort, selectedId }: CollectionListProps<T>) {
  const { t } = useTranslation();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(initialSort ?? null);
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => {
    const found = filterItems(items, query);
    const column = sort && columns.find((c) => c.key === sort.key);
    return column ? sortItems(found, (item) => column.value(item), sort!.direction) : found;
  }, [items, query, sort, columns]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i]!.id,
    overscan: 8,
  });
  const current = Math.min(active, Math.max(0, rows.length - 1));

  const move = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      ArrowUp: () => move(current - 1),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      PageDown: () => move(current + page),
      PageUp: () => move(current - page),
      Enter: () => rows[current] && onOpen?.(rows[current]),
    };
    const action = keys[e.key];
    if (!action || rows.length === 0) return;
    e.preventDefault();
    action();
  };

  const sortLabel = (column: Column<T>) => {
    if (sort?.key !== column.key) return t('collection.sortBy', { column: column.label });
    return t(sort.direction === 'asc' ? 'collection.sortedAsc' : 'collection.sortedDesc', { column: column.label });
  };
  const rowId = (item: T) => `${listId}-row-${item.id}`;
  const activeRow = rows[current];

  let body: ReactNode;
  if (state === 'loading') {
    body = <div className="cl-state" role="status"><Loader size="sm" aria-hidden="true" /><span>{t('collection.loading')}</span></div>;
  } else if (state === 'error') {
    body = (
      <Alert className="cl-state" color="red" role="alert" title={t('collection.loadFailed')}>
        {errorText(t, error)}
        {onRetry && <Button size="xs" variant="light" ml="sm" onClick={onRetry}>{t('collection.retry')}</Button>}
      </Alert>
    );
  } else if (rows.length === 0) {
    body = <p className="cl-state" role="status">{state === 'empty' ? t('collection.empty') : t('collection.noMatch')}</p>;
  } else {
    body = (
      <div ref={scrollRef} className="cl-scroll" role="listbox" aria-label={label} tabIndex={0} onKeyDown={onKeyDown}
        aria-activedescendant={activeRow ? rowId(activeRow) : undefined} data-testid="collection-list">
        <div className="cl-rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = rows[v.index]!;
            const selected = selectedId === undefined ? v.index === current : item.id === selectedId;
            const className = selectedId !== undefined && v.index === current ? 'cl-row cl-active' : 'cl-row';
            return (
              <div key={v.key} id={rowId(item)} role="option" aria-selected={selected} className={className}
                style={{ height: v.size, transform: `translateY(${v.start}px)` }}
                onClick={() => { setActive(v.index); onOpen?.(item); }}>
                {columns.map((c) => (
                  <span key={c.key} className={c.wide ? 'cl-cell cl-wide' : 'cl-cell'}>{c.render ? c.render(item) : shown(c.value(item), t)}</span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    );
  }

  return (
    <div className="cl">
      <div className="cl-toolbar">
        <TextInput className="cl-search" type="search" value={query} aria-label={t('collection.search', { name: label })}
          placeholder={t('collection.searchPlaceholder')} onChange={(e) => { setQuery(e.currentTarget.value); setActive(0); }} />
        {actions}
      </div>
      {/* A failed re-read keeps the last list on screen, but says it may be out of date. */}
      {state !== 'error' && state !== 'loading' && error != null && (
        <Alert className="cl-stale" color="yellow" role="alert" p="xs">
          {t('collection.refreshFailed')}
          {onRetry && <Button size="compact-xs" variant="subtle" ml="xs" onClick={onRetry}>{t('collection.retry')}</Button>}
        </Alert>
      )}
      {state === 'ready' && <p className="cl-count" aria-live="polite">{rows.length === items.length ? t('collection.total', { count: items.length }) : t('collection.count', { count: rows.length, total: items.length })}</p>}
      <div className="cl-head" role="group" aria-label={t('collection.sortGroup')}>
        {columns.map((c) => (
          <button key={c.key} type="button" className={c.wide ? 'cl-sort cl-wide' : 'cl-sort'} aria-label={sortLabel(c)}
            onClick={() => setSort((s) => nextSort(s, c.key))}>
            {c.label}
            {sort?.key === c.key && <span aria-hidden="true">{sort.direction === 'asc' ? ' ▲' : ' ▼'}</span>}
          </button>
        ))}
      </div>
      {body}
    </div>
  );
}
