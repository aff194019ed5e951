// Advanced logs (shell dialog kind 'logs'; user menu "logs", a user, a device;
// tarkan-reference §3.13.20): who did what and when, from which address and device, in the
// user's language, with each edit's changes. A period is read from the server a page at a time
// (newest first); search and sort work on what was read.
import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Loader, Modal, Select, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AuditObjectType } from '@rastro/domain/audit';
import type { User } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { errorText } from '../../api/error-text.ts';
import type { LogScope } from '../../app/shell/shell-dialogs.ts';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useLive } from '../../live/live-store.ts';
import { fetchLogPage, LOG_PAGE, logsPath } from './logs-api.ts';
import { LOG_PERIODS, periodRange, type LogPeriodId } from './log-period.ts';
import { DEFAULT_LOG_SORT, filterEntries, nextLogSort, sortEntries, toEntries, type LogSort } from './log-entries.ts';
import { LogsHeader, LogsList } from './logs-list.tsx';
import './logs.css';

function useScopeTitle(scope: LogScope): string {
  const { t } = useTranslation();
  const deviceName = useLive((s) => (scope.kind === 'device' ? s.devices[scope.deviceId]?.name : undefined));
  const userId = scope.kind === 'user' ? scope.userId : null;
  const user = useQuery({ queryKey: ['logs-user', userId], queryFn: () => api.get<User>(`/users/${userId}`), enabled: userId !== null, retry: false });
  if (scope.kind === 'device') return t('logs.title.device', { name: deviceName ?? `#${scope.deviceId}` });
  if (scope.kind === 'user') return t('logs.title.user', { name: user.data?.name ?? `#${scope.userId}` });
  return t('logs.title.all');
}

export function LogsViewer({ scope }: { scope: LogScope }) {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<LogPeriodId>('week');
  // Fixed while the pages of one reading are fetched, so later pages line up with the first.
  const [range, setRange] = useState(() => periodRange('week', new Date()));
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<LogSort>(DEFAULT_LOG_SORT);
  const devices = useLive((s) => s.devices);

  const logs = useInfiniteQuery({
    queryKey: ['audit-logs', logsPath(scope), range.from.toISOString(), range.to.toISOString()],
    queryFn: ({ pageParam, signal }) => fetchLogPage(scope, range, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < LOG_PAGE ? undefined : pages.length * LOG_PAGE),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

  const dateText = useCallback((ms: number) => new Date(ms).toLocaleString(i18n.language), [i18n.language]);
  const nameOf = useCallback((type: AuditObjectType, id: number) => (type === 'device' ? devices[id]?.name ?? null : null), [devices]);
  const entries = useMemo(() => {
    const seen = new Set<number>();
    // A row written between two pages' reads shows once.
    const rows = (logs.data?.pages ?? []).flat().filter((row) => !seen.has(row.id) && seen.add(row.id));
    return toEntries(rows, t, nameOf, dateText);
  }, [logs.data, t, nameOf, dateText]);
  const shown = useMemo(() => sortEntries(filterEntries(entries, query), sort), [entries, query, sort]);

  const choosePeriod = (value: string | null) => {
    if (!value) return;
    setPeriod(value as LogPeriodId);
    setRange(periodRange(value as LogPeriodId, new Date()));
  };

  let body;
  if (logs.isPending) {
    body = <div className="lg-state" role="status"><Loader size="sm" aria-hidden="true" /><span>{t('logs.loading')}</span></div>;
  } else if (logs.isError && entries.length === 0) {
    body = (
      <Alert color="red" role="alert" title={t('logs.loadFailed')} data-testid="logs-error">
        {errorText(t, logs.error)}
        <Button size="xs" variant="default" ml="sm" onClick={() => void logs.refetch()}>{t('logs.retry')}</Button>
      </Alert>
    );
  } else if (entries.length === 0) {
    body = <p className="lg-state" role="status" data-testid="logs-empty">{t('logs.empty')}</p>;
  } else if (shown.length === 0) {
    body = <p className="lg-state" role="status" data-testid="logs-no-match">{t('logs.noMatch')}</p>;
  } else {
    body = <LogsList entries={shown} dateText={dateText} />;
  }

  return (
    <div className="lg">
      <div className="lg-toolbar">
        <TextInput className="lg-search" type="search" label={t('logs.search')} placeholder={t('logs.searchPlaceholder')} value={query}
          onChange={(e) => setQuery(e.currentTarget.value)} data-testid="logs-search" />
        <Select className="lg-period" label={t('logs.period')} value={period} allowDeselect={false} onChange={choosePeriod}
          comboboxProps={{ zIndex: 400 }} data={LOG_PERIODS.map((p) => ({ value: p, label: t(`logs.periods.${p}`) }))} data-testid="logs-period" />
        <Button variant="default" onClick={() => setRange(periodRange(period, new Date()))} loading={logs.isFetching && !logs.isFetchingNextPage}>
          {t('logs.refresh')}
        </Button>
      </div>
      {entries.length > 0 && (
        <p className="lg-count" aria-live="polite" data-testid="logs-count">
          {shown.length === entries.length ? t('logs.count', { count: entries.length }) : t('logs.countOf', { shown: shown.length, count: entries.length })}
        </p>
      )}
      <LogsHeader sort={sort} onSort={(key) => setSort((s) => nextLogSort(s, key))} />
      {body}
      {logs.hasNextPage && (
        <Button variant="default" size="xs" onClick={() => void logs.fetchNextPage()} loading={logs.isFetchingNextPage} data-testid="logs-more">
          {t('logs.more')}
        </Button>
      )}
    </div>
  );
}

export default function LogsDialog({ dialog, onClose }: { dialog: { kind: 'logs'; scope: LogScope }; onClose(): void }) {
  useTexts('logs');
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  const title = useScopeTitle(dialog.scope);
  return (
    <Modal opened onClose={onClose} title={title} size="min(1200px, 96vw)" fullScreen={mobile} zIndex={300}
      closeButtonProps={{ 'aria-label': t('collection.close') }}>
      <LogsViewer scope={dialog.scope} />
    </Modal>
  );
}
