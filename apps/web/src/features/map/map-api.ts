// What other features may ask of the map without loading it (MapLibre is loaded lazily): select
// a device (fly to it, follow it and draw its live trail) or follow one. The map engine listens
// here; calls made before the map exists apply once it does.

export interface MapFocus {
  /** The selected device (its marker is highlighted and its live trail drawn), or null. */
  selectedId: number | null;
  /** Keep the selected device centred as it moves. */
  follow: boolean;
  /** Increases on every selectDevice call, so selecting the same device again flies to it again. */
  flyRequest: number;
}

let focus: MapFocus = { selectedId: null, follow: false, flyRequest: 0 };
const listeners = new Set<(focus: MapFocus) => void>();

function set(next: MapFocus): void {
  focus = next;
  for (const listener of listeners) listener(focus);
}

/** Selects a device: the map flies to it (zoom 16), follows it and draws its trail. null clears. */
export function selectDevice(id: number | null): void {
  set({ selectedId: id, follow: id !== null, flyRequest: focus.flyRequest + 1 });
}

/** Follows a device (selecting it without flying), or stops following with null. */
export function followDevice(id: number | null): void {
  if (id === null) set({ ...focus, follow: false });
  else set({ selectedId: id, follow: true, flyRequest: focus.selectedId === id ? focus.flyRequest : focus.flyRequest + 1 });
}

export function getMapFocus(): MapFocus {
  return focus;
}

export function subscribeMapFocus(listener: (focus: MapFocus) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Used by the map when the user drags it: following stops, the selection stays. */
export function stopFollowing(): void {
  if (focus.follow) set({ ...focus, follow: false });
}
