// What every report request shares: its period (`from`, `to`: ISO with offset, from <= to, no
// longer than `report.periodLimit`), the devices it covers (repeated `deviceId` and `groupId`,
// groups expanded to their subgroups' devices; neither → every visible device), the caller's
// right to reports, and the preferences a spreadsheet is written in (language, time zone, units).
//
// These checks run on the request thread and answer bad input at once; what they produce
// (`ReportParams`, plain values) is handed to a report thread (report-pool.ts), which adds its
// own database connection and settings lookup to make the `ReportRequest` producers read from.
import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, normalizeLanguage, type Language } from '@rastro/domain/language';
import { resolveDistanceUnit, resolveSpeedUnit, type DistanceUnit, type SpeedUnit } from '@rastro/domain/units';
import { isTimeZone } from '@rastro/domain/report-days';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { idsParam, isoBound, single, type Query } from '../access/list-params.ts';
import { CONFIG_KEY_DEFAULTS } from '../events/config-keys.ts';
import { asNumber, type AttributeLookup } from '../events/attribute-lookup.ts';
import { deviceIdsInGroups, devicesByIds, type ReportDevice } from './reports-repo.ts';

/** The same refusal as position history (Traccar's disableReports restriction). */
const reportsDisabled = () => forbidden('Reports are disabled - this account cannot view history or reports');

export interface ReportPrefs {
  language: Language;
  timeZone: string;
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
}

/** What a report needs of its caller. */
export type ReportUser = Pick<UserRow, 'id' | 'administrator' | 'email'>;

/** A checked report request as plain values (sent to a report thread as they are). */
export interface ReportParams {
  user: ReportUser;
  /** Covered devices, by name then id. */
  devices: ReportDevice[];
  from: number;
  to: number;
  query: Query;
  prefs: ReportPrefs;
}

/** What report producers read through: the database (a report thread's own connection). */
export type ReportContext = Pick<AppContext, 'storage'>;

/** A request as the producers see it, in a report thread. */
export interface ReportRequest extends ReportParams {
  ctx: ReportContext;
  /** Per-device settings as Traccar looks them up (device, groups, server, configuration), loaded for this job. */
  lookup: AttributeLookup;
}

/** Parses an ISO instant parameter; missing or malformed → 400 naming it. */
export const periodBound = (query: Query, name: 'from' | 'to'): number => isoBound(query, name, 'reports');

export function parsePeriod(query: Query): { from: number; to: number } {
  const from = periodBound(query, 'from');
  const to = periodBound(query, 'to');
  if (from > to) throw badRequest('Invalid period - from must not be later than to');
  return { from, to };
}

/**
 * `report.periodLimit` in seconds (0 = none): the server attribute when set, else the
 * configuration (RASTRO_REPORT_PERIOD_LIMIT), else the built-in 366 days.
 */
export function periodLimitSeconds(serverAttributes: Record<string, unknown>, configKeys: Record<string, unknown>): number {
  for (const value of [serverAttributes['report.periodLimit'], configKeys['report.periodLimit']]) {
    const seconds = asNumber(value);
    if (seconds !== undefined && seconds >= 0) return seconds;
  }
  return CONFIG_KEY_DEFAULTS['report.periodLimit'];
}

/** Refuses a period longer than `report.periodLimit` (reports and position history alike). */
export function assertPeriodLimit(from: number, to: number, serverAttributes: Record<string, unknown>, configKeys: Record<string, unknown>): void {
  const limit = periodLimitSeconds(serverAttributes, configKeys);
  if (limit > 0 && to - from > limit * 1000) {
    const days = limit / 86_400;
    const readable = days >= 1 ? ` (${Number.isInteger(days) ? days : days.toFixed(1)} days)` : '';
    throw badRequest(`Invalid period - reports cover at most ${limit} seconds${readable}; ask for a shorter period`);
  }
}

/** `path` of summary, trips and stops (not a Traccar parameter): `fast` (default) or `slow`, the full replay the tests compare with. */
export function pathParam(query: Query): 'fast' | 'slow' {
  const path = single(query, 'path') ?? 'fast';
  if (path !== 'fast' && path !== 'slow') throw badRequest('Invalid path - fast or slow');
  return path;
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
export async function readReportRequest(ctx: AppContext, req: FastifyRequest): Promise<ReportParams> {
  const user = requireUser(req);
  const query = (req.query ?? {}) as Query;
  const server = await getServerRow(ctx);
  if (user.administrator !== 1 && (user.disableReports === 1 || server.disableReports === 1)) throw reportsDisabled();
  const { from, to } = parsePeriod(query);
  const serverAttributes = parseAttributes(server.attributes);
  assertPeriodLimit(from, to, serverAttributes, ctx.config.keys);
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
  return { user: { id: user.id, administrator: user.administrator, email: user.email }, devices, from, to, query, prefs };
}
