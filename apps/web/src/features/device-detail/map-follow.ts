// The shared map and this panel: opening a device selects it on the map (the map flies to it
// and follows it, as map-api's selectDevice does); the Follow action switches following. State comes from the map layer's focus (map-api.ts), so the
// button stays right when the user drags the map (which stops following).
import { useEffect, useSyncExternalStore } from 'react';
import { followDevice, getMapFocus, selectDevice, subscribeMapFocus } from '../map/index.ts';

/** True while the map follows this device. */
export function useFollowing(deviceId: number): boolean {
  return useSyncExternalStore(subscribeMapFocus, () => {
    const focus = getMapFocus();
    return focus.follow && focus.selectedId === deviceId;
  });
}

export function setFollowing(deviceId: number, on: boolean): void {
  followDevice(on ? deviceId : null);
}

/** Selects the device on the map when its panel opens (the map flies to it and follows it). */
export function useSelectOnMap(deviceId: number, enabled: boolean): void {
  useEffect(() => {
    if (enabled && getMapFocus().selectedId !== deviceId) selectDevice(deviceId);
  }, [deviceId, enabled]);
}
