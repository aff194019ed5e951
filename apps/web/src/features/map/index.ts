// What other features use from the map: overlays (routes, markers, the replayed vehicle), the
// speed colours and the map's focus on a device.
export {
  clearOverlays, fitTo, keepInView, onMarkerClick, setHighlight, setMarkers, setRoutes, setVehicle,
  type FitPadding, type OverlayMarker, type OverlayPoint,
} from './overlay-api.ts';
export { SPEED_BANDS_KMH, SPEED_COLORS } from './overlay-colors.ts';
export { followDevice, getMapFocus, selectDevice, subscribeMapFocus } from './map-api.ts';
