import { describe, expect, it } from 'vitest';
import { overlayState, routeFeatures, setMarkers, setRoutes, setVehicle, clearOverlays } from './overlay-api.ts';
import { speedBand, speedColor, SPEED_COLORS } from './overlay-colors.ts';

const pt = (longitude: number, speed: number) => ({ longitude, latitude: 0.5, speed });

describe('route overlay', () => {
  it('colours by speed band in km/h (knots converted)', () => {
    expect(speedBand(0)).toBe(0);
    expect(speedBand(10 / 1.852)).toBe(1);
    expect(speedBand(100 / 1.852)).toBe(4);
    expect(speedColor(200)).toBe(SPEED_COLORS[5]);
  });

  it('merges consecutive legs of the same colour into one line', () => {
    const fc = routeFeatures([[pt(0, 20), pt(1, 20), pt(2, 20), pt(3, 60), pt(4, 60)]]);
    expect(fc.features).toHaveLength(2);
    expect(fc.features[0]!.geometry.coordinates).toEqual([[0, 0.5], [1, 0.5], [2, 0.5]]);
    expect(fc.features[1]!.geometry.coordinates).toEqual([[2, 0.5], [3, 0.5], [4, 0.5]]);
    expect(routeFeatures([[pt(0, 1)]]).features).toHaveLength(0);
  });

  it('remembers what was asked before the map exists, and clears it', () => {
    setRoutes([[pt(0, 1), pt(1, 1)]]);
    setMarkers([{ id: 'start', kind: 'start', longitude: 0, latitude: 0.5 }]);
    setVehicle({ longitude: 1, latitude: 0.5, course: 90 });
    expect(overlayState()).toMatchObject({ routes: [2], markers: [{ id: 'start', kind: 'start' }], vehicle: { course: 90 } });
    clearOverlays();
    expect(overlayState()).toMatchObject({ routes: [], markers: [], vehicle: null });
  });
});
