// What every report request shares: its period (`from`, `to`: ISO with offset, from <= to),
// the devices it covers (repeated `deviceId` and `groupId`, groups expanded to their
// subgroups' devices; neither → every visible device), the caller's right to reports, and the
// preferences a spreadsheet is written in (language, time zone, units).
import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, normalizeLanguage, type Language } from '@rastro/domain/language';
import { resolveDistanceUnit, resolveSpeedUnit, type DistanceUnit, type SpeedUnit } from '@rastro/domain/units';
import { isTimeZone } from '@rastro/domain/report-days';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { getServerRow, type ServerRow } from '../server-info/server-repo.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { parseAttributes, parseIsoInstant } from '../http/json.ts';
import { idsParam, single, type Query } from '../access/list-params.ts';
import { deviceIdsInGroups, devicesByIds, type ReportDevice } from './reports-repo.ts';

/** The same refusal as position history (Traccar's disableReports restriction). */
const reportsDisabled = () => forbidden('Reports are disabled - this account cannot view history or reports');

export interface ReportPrefs {
  language: Language;
  timeZone: string;
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
}

export interface ReportRequest {
  ctx: AppContext;
  user: UserRow;
  server: ServerRow;
  /** Covered devices, by name then id. */
  devices: ReportDevice[];
  from: number;
  to: number;
  query: Query;
  prefs: ReportPrefs;
}

/** Parses an ISO instant parameter; missing or malformed → 400 naming it. */
export function periodBound(query: Query, name: 'from' | 'to'): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`Missing ${name} - reports need from and to as ISO dates with an offset, like 2024-05-01T10:00:00Z`);
  }
  const ms = parseIsoInstant(raw);
  if (ms === null) throw badRequest(`Invalid ${name} "${raw.slice(0, 40)}" - an ISO date with an offset is expected, like 2024-05-01T10:00:00Z`);
  return ms;
}

export function parsePeriod(query: Query): { from: number; to: number } {
  const from = periodBound(query, 'from');
  const to = periodBound(query, 'to');
  if (from > to) throw badRequest('Invalid period - from must not be later than to');
  return { from, to };
}

/** First language of an Accept-Language header we ship, by quality then order. */
export function acceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((x) => x.tag !== '' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const lang = normalizeLanguage(tag);
    if (lang) return lang;
  }
  return null;
}

/**
 * Language of the spreadsheet: the user's `language` (or `tarkan.lang`) attribute, else the
 * browser's Accept-Language, else the server's attributes, else Brazilian Portuguese.
 * Time zone: user's `timezone`, else server's, else the process zone. Units: the shared rule.
 */
export function reportPrefs(userAttributes: Record<string, unknown>, serverAttributes: Record<string, unknown>, acceptLanguageHeader?: string): ReportPrefs {
  const language =
    normalizeLanguage(userAttributes.language) ??
    normalizeLanguage(userAttributes['tarkan.lang']) ??
    acceptLanguage(acceptLanguageHeader) ??
    normalizeLanguage(serverAttributes.language) ??
    normalizeLanguage(serverAttributes['tarkan.lang']) ??
    DEFAULT_LANGUAGE;
  const zone = [userAttributes.timezone, serverAttributes.timezone].find(isTimeZone);
  return {
    language,
    timeZone: zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    speedUnit: resolveSpeedUnit(userAttributes, serverAttributes, language),
    distanceUnit: resolveDistanceUnit(userAttributes, serverAttributes, language),
  };
}

/** Reads and checks everything common to report requests; throws ApiError (400) on bad input or refusal. */
export async function readReportRequest(ctx: AppContext, req: FastifyRequest): Promise<ReportRequest> {
  const user = requireUser(req);
  const query = (req.query ?? {}) as Query;
  const server = await getServerRow(ctx);
  if (user.administrator !== 1 && (user.disableReports === 1 || server.disableReports === 1)) throw reportsDisabled();
  const { from, to } = parsePeriod(query);
  const serverAttributes = parseAttributes(server.attributes);
  const limit = Number(serverAttributes['report.periodLimit']);
  if (Number.isFinite(limit) && limit > 0 && to - from > limit * 1000) {
    throw badRequest(`Invalid period - reports cover at most ${limit} seconds`);
  }
  const deviceIds = idsParam(query, 'deviceId');
  const groupIds = idsParam(query, 'groupId');
  const visible = await ctx.visibility.deviceIds(user);
  let wanted: number[];
  if (deviceIds.length === 0 && groupIds.length === 0) wanted = [...visible];
  else {
    // As Traccar: devices (and group members) the caller cannot see are left out, not refused.
    const fromGroups = await deviceIdsInGroups(ctx.storage.db, groupIds);
    wanted = [...new Set([...deviceIds, ...fromGroups])].filter((id) => visible.has(id));
  }
  const devices = wanted.length > 0 ? await devicesByIds(ctx.storage.db, wanted) : [];
  const prefs = reportPrefs(parseAttributes(user.attributes), serverAttributes, req.headers['accept-language']);
  return { ctx, user, server, devices, from, to, query, prefs };
}
