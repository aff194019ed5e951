// Map centring (spec §5): only non-zero coordinates within latitude -90…90 and longitude -180…180.

export function isValidCoordinate(latitude: unknown, longitude: unknown): boolean {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return false;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return false;
  if (latitude === 0 || longitude === 0) return false;
  return latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180;
}

/** The position's coordinates when the map may centre on them, else null. */
export function centreOf(position: { latitude: number; longitude: number } | null | undefined): [number, number] | null {
  if (!position || !isValidCoordinate(position.latitude, position.longitude)) return null;
  return [position.longitude, position.latitude];
}
