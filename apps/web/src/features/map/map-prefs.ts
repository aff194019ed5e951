// Map preferences (spec §9, reference §5.13): localStorage `mapPref` as JSON, defaults clustered
// true and name, plate, status, precision false. Keys we do not know (e.g. `groups`, used by the
// device list) are kept as they are. Listeners hear every change (the map and its control).

export interface MapPrefs {
  clustered: boolean;
  name: boolean;
  plate: boolean;
  status: boolean;
  precision: boolean;
}

export type MapPrefKey = keyof MapPrefs;

export const MAP_PREF_STORAGE_KEY = 'mapPref';
export const MAP_PREF_KEYS: readonly MapPrefKey[] = ['clustered', 'name', 'plate', 'status', 'precision'];
export const DEFAULT_MAP_PREFS: Readonly<MapPrefs> = { clustered: true, name: false, plate: false, status: false, precision: false };

function readStored(): Record<string, unknown> {
  try {
    const value = JSON.parse(localStorage.getItem(MAP_PREF_STORAGE_KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The stored preferences over the defaults (only real booleans count). */
export function parseMapPrefs(stored: Record<string, unknown>): MapPrefs {
  const prefs = { ...DEFAULT_MAP_PREFS };
  for (const key of MAP_PREF_KEYS) if (typeof stored[key] === 'boolean') prefs[key] = stored[key];
  return prefs;
}

let current: MapPrefs | null = null;
const listeners = new Set<(prefs: MapPrefs) => void>();

export function getMapPrefs(): MapPrefs {
  return (current ??= parseMapPrefs(readStored()));
}

export function setMapPref(key: MapPrefKey, value: boolean): void {
  const next = { ...getMapPrefs(), [key]: value };
  current = next;
  try {
    localStorage.setItem(MAP_PREF_STORAGE_KEY, JSON.stringify({ ...readStored(), [key]: value }));
  } catch {
    /* storage full or blocked: the choice holds for this session */
  }
  for (const listener of listeners) listener(next);
}

export function subscribeMapPrefs(listener: (prefs: MapPrefs) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tests: forget the in-memory copy so the next read comes from storage. */
export function resetMapPrefsCache(): void {
  current = null;
}
