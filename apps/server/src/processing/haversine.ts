// Great-circle distance as Traccar computes it everywhere (haversine, equatorial radius).
export const EARTH_RADIUS_M = 6_378_137;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Metres between two points given in degrees. */
export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}
