// The map under every screen. Loads MapLibre lazily (after sign-in, inside the shell), attaches
// the session's one map to this container and keeps its markers in line with the live store.
// Shows the loading, error and empty states, and a note while the live connection is down.
import { useEffect, useRef, useState } from 'react';
import { Button, Loader } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session-store.ts';
import { subscribePositions, useLive } from '../../live/live-store.ts';
import { tileUrlOf } from './base-style.ts';
import { initialView } from './initial-view.ts';
import { MapPrefsControl } from './map-prefs-control.tsx';
import type { LiveFeed, VisibilityFeed } from './device-layer.ts';
import './map.css';

/**
 * The live store as the devices layer reads it: each batch of accepted positions (O(message)),
 * and a full reconcile only when the devices change or the positions record is replaced.
 */
const liveFeed: LiveFeed = {
  devices: () => useLive.getState().devices,
  positions: () => useLive.getState().positions,
  subscribe: (listener) =>
    useLive.subscribe((s, prev) => {
      if (s.devices !== prev.devices || s.positions !== prev.positions) listener(s.devices !== prev.devices, s.positions !== prev.positions);
    }),
  subscribePositions,
};

/** True when some device has a position. Positions only grow between device changes, so a found one is kept. */
let markerSeen: { devices: unknown; positions: unknown } | null = null;
function anyMarker(s: { devices: Record<number, unknown>; positions: Record<number, unknown> }): boolean {
  if (markerSeen && markerSeen.devices === s.devices && markerSeen.positions === s.positions) return true;
  for (const id in s.positions) {
    if (s.devices[Number(id)]) {
      markerSeen = { devices: s.devices, positions: s.positions };
      return true;
    }
  }
  return false;
}

/**
 * The device list's filters (live/visible-devices.ts: getVisibleDeviceIds() → Set | null and
 * subscribeVisibleDeviceIds). Markers of devices outside the set are hidden. Loaded lazily with
 * the map (a glob, so the map also builds without that module).
 */
type VisibleDevicesModule = {
  getVisibleDeviceIds?: () => Set<number> | null;
  subscribeVisibleDeviceIds?: (listener: () => void) => () => void;
  subscribe?: (listener: () => void) => () => void;
};
const visibleDevicesModules = import.meta.glob<VisibleDevicesModule>('../../live/visible-devices.ts');

async function visibilityFeed(): Promise<VisibilityFeed | null> {
  const load = Object.values(visibleDevicesModules)[0];
  if (!load) return null;
  const mod = await load();
  const subscribe = mod.subscribeVisibleDeviceIds ?? mod.subscribe;
  if (!mod.getVisibleDeviceIds || !subscribe) return null;
  return { get: mod.getVisibleDeviceIds, subscribe: (listener) => subscribe(() => listener()) };
}

type MapState = 'loading' | 'ready' | 'error';

function LiveStatus({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const status = useLive((s) => s.status);
  const socket = useLive((s) => s.socket);
  // Not Object.keys per store update: with a large fleet that is O(fleet) per socket message.
  const hasMarkers = useLive(anyMarker);
  const [wasOpen, setWasOpen] = useState(false);
  if (socket === 'open' && !wasOpen) setWasOpen(true);

  if (status === 'loading') {
    return (
      <div className="map-note" role="status" data-testid="map-devices-loading">
        <Loader size={14} color="rastro.7" /> {t('map.devicesLoading')}
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="map-note is-error" role="alert">
        <span>{t('map.devicesError')}</span>
        <Button size="compact-sm" variant="light" color="red.9" onClick={onRetry}>{t('map.retry')}</Button>
      </div>
    );
  }
  if (wasOpen && socket !== 'open') {
    return <div className="map-note is-warning" role="status" data-testid="map-reconnecting">{t('map.reconnecting')}</div>;
  }
  if (status === 'ready' && !hasMarkers) {
    return <div className="map-note" role="status" data-testid="map-empty">{t('map.empty')}</div>;
  }
  return null;
}

export function MapView({ onRetry, compact }: { onRetry: () => void; compact: boolean }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<MapState>('loading');
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    let cancelled = false;
    let detach: (() => void) | null = null;
    const { user, serverInfo } = useSession.getState();
    const live = useLive.getState();
    const selectZoom = Number(serverInfo?.server.attributes?.['web.selectZoom']);
    const setup = {
      selectZoom: Number.isFinite(selectZoom) && selectZoom > 0 ? selectZoom : undefined,
      tileUrl: tileUrlOf(serverInfo?.server.attributes),
      view: initialView(user, serverInfo?.server, Object.values(live.positions)),
      compactAttribution: compact,
      locale: {
        'NavigationControl.ZoomIn': t('map.zoomIn'),
        'NavigationControl.ZoomOut': t('map.zoomOut'),
        'NavigationControl.ResetBearing': t('map.resetBearing'),
        'AttributionControl.ToggleAttribution': t('map.toggleAttribution'),
        'Map.Title': t('map.label'),
      },
    };
    Promise.all([import('./map-engine.ts'), visibilityFeed().catch(() => null)])
      .then(([{ mapEngine }, visibility]) => {
        const element = container.current;
        if (cancelled || !element) return;
        const engine = mapEngine(setup);
        try {
          engine.attach(element, () => !cancelled && setState('ready'));
        } catch (error) {
          console.error(error);
          setState('error');
          return;
        }
        detach = () => engine.detach();
        engine.connect(liveFeed, visibility);
        // A vehicle clicked on the map opens its panel (/devices/:id), which keeps it selected.
        engine.openVehicle = (id) => navigateRef.current(`/devices/${id}`);
        engine.exposeTestHook();
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setState('error');
      });
    return () => {
      cancelled = true;
      detach?.();
    };
    // The map is set up once per session; later changes reach it through the store.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    // MapLibre's canvas is the labelled, focusable map region; this wrapper only holds it and its notes.
    <div className="map-area" id="map" tabIndex={-1}>
      <div ref={container} className="map-container" data-testid="map" data-state={state} />
      {state === 'loading' && (
        <div className="map-overlay" role="status">
          <Loader size="sm" color="rastro.7" />
          <span>{t('map.loading')}</span>
        </div>
      )}
      {state === 'error' && (
        <div className="map-overlay is-error" role="alert">
          <span>{t('map.error')}</span>
        </div>
      )}
      {state === 'ready' && <MapPrefsControl />}
      <div className="map-notes">
        <LiveStatus onRetry={onRetry} />
      </div>
    </div>
  );
}
