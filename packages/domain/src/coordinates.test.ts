import { describe, expect, it } from 'vitest';
import { centreOf, isValidCoordinate } from './coordinates.ts';

describe('map centring coordinates', () => {
  it('accepts non-zero values in range', () => {
    expect(isValidCoordinate(-23.5, -46.6)).toBe(true);
    expect(isValidCoordinate(90, 180)).toBe(true);
    expect(isValidCoordinate(-90, -180)).toBe(true);
  });
  it('refuses zero, out of range and non-numbers', () => {
    for (const [lat, lon] of [[0, 10], [10, 0], [0, 0], [90.1, 1], [1, -180.5], [NaN, 1], [1, Infinity], ['1', 2], [null, 2]]) {
      expect(isValidCoordinate(lat, lon), `${lat},${lon}`).toBe(false);
    }
  });
  it('centre of a position', () => {
    expect(centreOf({ latitude: -23, longitude: -46 })).toEqual([-46, -23]);
    expect(centreOf({ latitude: 0, longitude: -46 })).toBeNull();
    expect(centreOf(null)).toBeNull();
  });
});
