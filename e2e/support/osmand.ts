// Positions for browser tests go in the way a real device's do: through the server's OsmAnd
// port (global-setup starts it), one HTTP request per report.
import { env } from './env.ts';

export type OsmandValue = string | number | boolean;

/**
 * One OsmAnd report, like a phone running Traccar Client sends; `fields` adds or overrides
 * query fields (speed, bearing, ignition, alarm…). Returns the answer's body: the text of a
 * queued command when the server hands one over, else empty.
 */
export async function osmandReport(uniqueId: string, lat: number, lon: number, fields: Record<string, OsmandValue> = {}, at: Date = new Date()): Promise<string> {
  const params = new URLSearchParams({ id: uniqueId, lat: String(lat), lon: String(lon), timestamp: String(Math.floor(at.getTime() / 1000)) });
  for (const [k, v] of Object.entries(fields)) params.set(k, String(v));
  const res = await fetch(`http://127.0.0.1:${env.osmandPort}/?${params}`, { method: 'POST' });
  const body = await res.text();
  if (!res.ok) throw new Error(`OsmAnd ${res.status}: ${body}`);
  return body;
}

/** Where the known track runs (see postKnownTrack). */
export const KNOWN_TRACK = { lat: -23.55, lonA: -46.7, lonB: -46.7 + 0.15, points: 31 } as const;

/**
 * A known track ending `endAgoMin` minutes ago: parked 10 min at A, 15 min driving east at
 * about 33 kn (61 km/h) with an SOS alarm half-way, parked 20 min at B; fuel falls while
 * driving. 31 points; the history and report tests check their answers against it.
 */
export async function postKnownTrack(uniqueId: string, endAgoMin = 5): Promise<void> {
  const t0 = Date.now() - (endAgoMin + 46) * 60_000;
  const at = (min: number) => new Date(t0 + min * 60_000);
  const { lat, lonA, lonB } = KNOWN_TRACK;
  for (let i = 0; i <= 5; i++) await osmandReport(uniqueId, lat, lonA, { speed: 0, ignition: false, fuel: 60, bearing: 90 }, at(i * 2));
  for (let i = 1; i <= 15; i++) {
    await osmandReport(uniqueId, lat, lonA + i * 0.01, { speed: i === 15 ? 10 : 33, ignition: true, fuel: 60 - i * 0.2, bearing: 90, ...(i === 8 ? { alarm: 'sos' } : {}) }, at(10 + i));
  }
  for (let i = 1; i <= 10; i++) await osmandReport(uniqueId, lat, lonB, { speed: 0, ignition: false, fuel: 57, bearing: 90 }, at(25 + i * 2));
}
