// H02 reports without a GPS fix of their own: heartbeats (HTBT), status links (LINK) and the
// cell lists trackers send when GPS is out (NBR, V3, VP1 with `V`). Each becomes an outdated
// fix, placed by the pipeline at the device's last known position, carrying what it reports.
import type { Network } from '@rastro/domain/entities';
import type { DecodedFix } from '../decoded.ts';
import { parseCoordinate } from './h02-coordinates.ts';
import { decimal, deviceInstant, h02Fix, h02Outdated, integer } from './h02-fields.ts';
import { parseStatus, statusAttributes } from './h02-status.ts';

type Tower = NonNullable<Network['cellTowers']>[number];

/** Cell towers from `lac,cid[,signal]` groups; null when a group is not numbers. */
function towers(mcc: number, mnc: number, groups: readonly (readonly string[])[]): Tower[] | null {
  const out: Tower[] = [];
  for (const group of groups) {
    const [lac, cid, signal] = group.map(integer);
    if (lac == null || cid == null || lac < 0 || cid < 0) return null;
    out.push({ mobileCountryCode: mcc, mobileNetworkCode: mnc, locationAreaCode: lac, cellId: cid, ...(signal != null ? { signalStrength: signal } : {}) });
  }
  return out;
}

function withStatus(fix: DecodedFix, status: string | undefined): DecodedFix {
  const word = parseStatus(status ?? '');
  if (word !== null) Object.assign(fix.attributes, statusAttributes(word));
  return fix;
}

/** `HTBT[,battery%]`: a battery level when the heartbeat carries one, else nothing to store. */
export function decodeHeartbeat(fields: readonly string[], now: number): DecodedFix | null {
  const level = integer(fields[3]);
  if (level === null) return null;
  const fix = h02Outdated(now, null);
  fix.attributes.batteryLevel = level;
  return fix;
}

/** `LINK,hhmmss,rssi,satellites,battery%,steps,turnovers,ddmmyy,status`. */
export function decodeLink(fields: readonly string[], now: number): DecodedFix | null {
  if (fields.length < 11) return null;
  const fix = h02Outdated(now, deviceInstant(fields[9], fields[3]));
  const [rssi, sat, batteryLevel, steps, turnovers] = fields.slice(4, 9).map(integer);
  Object.assign(fix.attributes, Object.fromEntries(Object.entries({ rssi, sat, batteryLevel, steps, turnovers }).filter(([, v]) => v !== null)));
  return withStatus(fix, fields[10]);
}

/** `NBR,hhmmss,mcc,mnc,delay,count,(lac,cid,signal)×count,ddmmyy,status`. */
export function decodeNeighbours(fields: readonly string[], now: number): DecodedFix | null {
  const [mcc, mnc, count] = [integer(fields[4]), integer(fields[5]), integer(fields[7])];
  if (mcc === null || mnc === null || count === null || count < 0 || 8 + count * 3 + 2 > fields.length) return null;
  const groups = Array.from({ length: count }, (_, i) => fields.slice(8 + i * 3, 11 + i * 3));
  const cellTowers = towers(mcc, mnc, groups);
  if (!cellTowers) return null;
  const dateIndex = 8 + count * 3;
  const fix = h02Outdated(now, deviceInstant(fields[dateIndex], fields[3]));
  fix.network = { cellTowers };
  return withStatus(fix, fields[dateIndex + 1]);
}

/** `V3,hhmmss,<mcc><mnc>,count,(lac,cid,signal,-)×count,battery,reboots,X,ddmmyy,status`. */
export function decodeCellsV3(fields: readonly string[], now: number): DecodedFix | null {
  const n = fields.length;
  const operator = /^(\d{3})(\d{1,3})$/.exec(fields[4] ?? '');
  const count = integer(fields[5]);
  if (!operator || count === null || fields[n - 3] !== 'X' || 6 + count * 4 !== n - 5) return null;
  const groups = Array.from({ length: count }, (_, i) => fields.slice(6 + i * 4, 9 + i * 4));
  const cellTowers = towers(Number(operator[1]), Number(operator[2]), groups);
  if (!cellTowers) return null;
  const fix = h02Outdated(now, deviceInstant(fields[n - 2], fields[3]));
  fix.network = { cellTowers };
  return withStatus(fix, fields[n - 1]);
}

/**
 * `VP1,V,mcc,mnc,lac,cid,signalYlac,cid,signal…` (cells only) or
 * `VP1,A|B,lat,N|S,lon,E|W,knots,course,ddmmyy` (a fix dated by its day alone).
 */
export function decodeVp1(fields: readonly string[], now: number): DecodedFix | null {
  if (fields[3] === 'V') {
    const [mcc, mnc] = [integer(fields[4]), integer(fields[5])];
    if (mcc === null || mnc === null) return null;
    const groups = fields.slice(6).join(',').split('Y').map((g) => g.split(','));
    const cellTowers = towers(mcc, mnc, groups);
    if (!cellTowers) return null;
    const fix = h02Outdated(now, null);
    fix.network = { cellTowers };
    return fix;
  }
  if (fields[3] !== 'A' && fields[3] !== 'B') return null;
  const fix = h02Fix(now, deviceInstant(fields[10], '000000') ?? Number.NaN);
  fix.latitude = parseCoordinate(fields[4] ?? '', fields[5] ?? '', 'N', 'S') ?? Number.NaN;
  fix.longitude = parseCoordinate(fields[6] ?? '', fields[7] ?? '', 'E', 'W') ?? Number.NaN;
  fix.speed = decimal(fields[8]) ?? Number.NaN;
  fix.course = decimal(fields[9]) ?? Number.NaN;
  return fix;
}
