// Row -> API JSON of a statistics day (OpenAPI Statistics; Traccar's model, with its id and
// attributes): `protocols` is {protocol: active devices}, null on a day without any.
import { parseAttributes, toIso } from '../http/json.ts';
import type { StatisticsRow } from './statistics-repo.ts';

function protocolsOf(text: string | null): Record<string, number> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : null;
  } catch {
    return null;
  }
}

export function statisticsToJson(row: StatisticsRow) {
  return {
    id: Number(row.id),
    attributes: parseAttributes(row.attributes, 'statistics.attributes', row.id),
    captureTime: toIso(Number(row.captureTime), 'statistics.captureTime', row.id),
    activeUsers: Number(row.activeUsers),
    activeDevices: Number(row.activeDevices),
    requests: Number(row.requests),
    messagesReceived: Number(row.messagesReceived),
    messagesStored: Number(row.messagesStored),
    mailSent: Number(row.mailSent),
    smsSent: Number(row.smsSent),
    geocoderRequests: Number(row.geocoderRequests),
    geolocationRequests: Number(row.geolocationRequests),
    protocols: protocolsOf(row.protocols),
  };
}
