// Centre the shared map on a device and keep it centred while following. Uses the map layer's
// followDevice/selectDevice (features/map/map-api.ts) when that module exists; until then it
// drives the session's MapLibre instance directly.
import { useEffect } from 'react';
import { useLive } from '../../live/live-store.ts';

type MapApi = { followDevice?: (id: number | null) => void; selectDevice?: (id: number | null) => void };
const mapApiModules = import.meta.glob<MapApi>('../map/map-api.ts');
const loadMapApi = async (): Promise<MapApi | null> => {
  const load = Object.values(mapApiModules)[0];
  return load ? load() : null;
};

interface MiniMap { easeTo(o: { center: [number, number]; zoom?: number; duration?: number }): void; getZoom(): number }

async function mapInstance(): Promise<MiniMap | null> {
  if (!document.querySelector('.rastro-map')) return null; // the map was never created
  const { mapEngine } = await import('../map/map-engine.ts');
  return (mapEngine(null as never).instance as unknown as MiniMap | null) ?? null;
}

export async function centerOn(deviceId: number, zoomIn = true): Promise<void> {
  const apiMod = await loadMapApi();
  if (apiMod?.selectDevice) return apiMod.selectDevice(deviceId);
  const p = useLive.getState().positions[deviceId];
  const map = await mapInstance();
  if (!p || !map || (p.latitude === 0 && p.longitude === 0)) return;
  map.easeTo({ center: [p.longitude, p.latitude], zoom: zoomIn ? Math.max(map.getZoom(), 15) : undefined, duration: 500 });
}

/** While `active`, every new position of the device re-centres the map. */
export function useFollow(deviceId: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void loadMapApi().then((apiMod) => {
      if (cancelled) return;
      if (apiMod?.followDevice) {
        apiMod.followDevice(deviceId);
        stop = () => apiMod.followDevice!(null);
        return;
      }
      void centerOn(deviceId);
      stop = useLive.subscribe((s, prev) => {
        if (s.positions[deviceId] !== prev.positions[deviceId]) void centerOn(deviceId, false);
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [deviceId, active]);
}
