// The detail's last three hours (tarkan-reference §3.9; the server options "show stops and
// events", attributes tarkan.enableStops and tarkan.enableEvents): a motion bar cut where the
// motion attribute changes, from /api/reports/route, and the events newest first, from
// /api/reports/events. Both refresh every minute.
import { Button, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { MOTION_WINDOW_MS, motionSegments, motionTotals, type MotionKind, type MotionPoint } from '@rastro/domain/device-motion';
import { api } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { hoursMinutes } from './format.ts';

const REFRESH_MS = 60_000;
const truthy = (v: unknown) => v === true || v === 'true';

/** Which of the two sections the server switched on. */
export function useRecentOptions(): { stops: boolean; events: boolean } {
  const attrs = useSession((s) => s.serverInfo?.server.attributes);
  return { stops: truthy(attrs?.['tarkan.enableStops']), events: truthy(attrs?.['tarkan.enableEvents']) };
}

function windowNow(): { from: number; to: number; params: { from: string; to: string } } {
  const to = Date.now();
  const from = to - MOTION_WINDOW_MS;
  return { from, to, params: { from: new Date(from).toISOString(), to: new Date(to).toISOString() } };
}

function useDuration() {
  const { t } = useTranslation();
  return (ms: number) => {
    const { h, m } = hoursMinutes(ms);
    return h > 0 ? t('device.recent.hours', { h, m }) : t('device.recent.minutes', { count: m });
  };
}

function State({ loading, error, onRetry, loadingText }: { loading: boolean; error: boolean; onRetry(): void; loadingText: string }) {
  const { t } = useTranslation();
  if (loading) return <Group gap="xs" role="status"><Loader size="xs" /><Text size="sm">{loadingText}</Text></Group>;
  if (error) {
    return (
      <Group gap="xs" role="alert">
        <Text size="sm" c="#b42318">{t('device.recent.error')}</Text>
        <Button size="compact-xs" variant="light" onClick={onRetry}>{t('device.recent.retry')}</Button>
      </Group>
    );
  }
  return null;
}

export function RecentMotion({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const duration = useDuration();
  const route = useQuery({
    queryKey: ['recent-route', deviceId],
    queryFn: async () => {
      const w = windowNow();
      const points = await api.get<MotionPoint[]>('/reports/route', { deviceId, ...w.params });
      return { ...w, segments: motionSegments(points, w.from, w.to) };
    },
    refetchInterval: REFRESH_MS,
    staleTime: REFRESH_MS / 2,
  });
  const time = (ms: number) => new Date(ms).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  const kindText = (k: MotionKind) => t(`device.recent.${k}`);
  const data = route.data;
  const totals = data ? motionTotals(data.segments) : null;
  return (
    <section aria-labelledby="dd-motion" className="dd-section" data-testid="device-motion">
      <h3 id="dd-motion" className="dd-h">{t('device.recent.motionTitle')}</h3>
      <State loading={route.isLoading} error={route.isError && !data} onRetry={() => void route.refetch()} loadingText={t('device.recent.loading')} />
      {data && totals && (
        <>
          <div className="dd-motion-bar" aria-hidden="true">
            {data.segments.map((s) => (
              <span key={s.start} className={`dd-motion-seg is-${s.kind}`} data-kind={s.kind} style={{ flexGrow: s.end - s.start }}
                title={t('device.recent.segment', { kind: kindText(s.kind), start: time(s.start), end: time(s.end), duration: duration(s.end - s.start) })} />
            ))}
          </div>
          <div className="dd-motion-scale" aria-hidden="true">
            <span>{t('device.recent.ago')}</span>
            <span>{t('device.recent.now')}</span>
          </div>
          <ul className="dd-motion-totals">
            {(['moving', 'stopped'] as const).map((k) => (
              <li key={k} data-kind={k}>
                <span className={`dd-motion-dot is-${k}`} aria-hidden="true" />
                {t('device.recent.total', { kind: kindText(k), duration: duration(totals[k]) })}
              </li>
            ))}
          </ul>
          <ol className="dd-sr">
            {data.segments.map((s) => (
              <li key={s.start}>{t('device.recent.segment', { kind: kindText(s.kind), start: time(s.start), end: time(s.end), duration: duration(s.end - s.start) })}</li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

interface EventRow {
  id: number;
  type: string;
  eventTime: string;
  attributes?: Record<string, unknown> | null;
}

export function RecentEvents({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const events = useQuery({
    queryKey: ['recent-events', deviceId],
    queryFn: async () => {
      const w = windowNow();
      const list = await api.get<EventRow[]>('/reports/events', { deviceId, type: 'allEvents', ...w.params });
      return [...list].sort((a, b) => Date.parse(b.eventTime) - Date.parse(a.eventTime));
    },
    refetchInterval: REFRESH_MS,
    staleTime: REFRESH_MS / 2,
  });
  const label = (e: EventRow) => {
    const alarm = e.attributes?.alarm;
    if (typeof alarm === 'string' && alarm) return t(`events.alarms.${alarm}`, { defaultValue: alarm });
    return t(`events.types.${e.type}`, { defaultValue: e.type });
  };
  return (
    <section aria-labelledby="dd-events" className="dd-section" data-testid="device-events">
      <h3 id="dd-events" className="dd-h">{t('device.recent.eventsTitle')}</h3>
      <State loading={events.isLoading} error={events.isError && !events.data} onRetry={() => void events.refetch()} loadingText={t('device.recent.loading')} />
      {events.data && events.data.length === 0 && <Text size="sm" c="gray.7">{t('device.recent.noEvents')}</Text>}
      {events.data && events.data.length > 0 && (
        <ul className="dd-events">
          {events.data.slice(0, 50).map((e) => (
            <li key={e.id}>
              <time dateTime={e.eventTime}>{new Date(e.eventTime).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' })}</time>
              <span>{label(e)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
