// The log viewer's rows ready to show: each audit row read once (its sentence, its changes,
// its agent, its sort keys and the text a search looks in), then searched and sorted on the
// client (tarkan-reference §3.13.20: a search box; date, user and IP sortable, IP numerically).
import type { AuditChange, AuditRow } from '@rastro/domain/audit';
import { normalizeText, parseQuery } from '@rastro/domain/device-search';
import type { TFunction } from '../../i18n/translator.ts';
import { actorName, changeValue, describeRow, type NameOf } from './describe-row.ts';
import { ipKey } from './ip-order.ts';
import { agentSummary, parseUserAgent } from './user-agent.ts';

export interface LogEntry {
  row: AuditRow;
  at: number;
  user: string;
  ip: string;
  ipKey: string | null;
  agent: string;
  text: string;
  changes: AuditChange[];
  failed: boolean;
  /** Normalised text a query is matched against. */
  search: string;
}

export type LogSortKey = 'date' | 'user' | 'ip';
export interface LogSort {
  key: LogSortKey;
  direction: 'asc' | 'desc';
}

/** The newest first, as the server sends them. */
export const DEFAULT_LOG_SORT: LogSort = { key: 'date', direction: 'desc' };

export function toEntries(rows: readonly AuditRow[], t: TFunction, nameOf: NameOf, dateText: (ms: number) => string): LogEntry[] {
  return rows.map((row) => {
    const at = Date.parse(row.created_at);
    const described = describeRow(row, t, nameOf);
    const user = actorName(row, t);
    const agent = agentSummary(parseUserAgent(row.userAgent));
    const changeTexts = described.changes.flatMap((c) => [c.field, changeValue(c.before, t), changeValue(c.after, t)]);
    return {
      row,
      at,
      user,
      ip: row.userIp ?? '',
      ipKey: ipKey(row.userIp),
      agent,
      text: described.text,
      changes: described.changes,
      failed: described.failed,
      search: normalizeText([Number.isFinite(at) ? dateText(at) : '', user, row.userIp ?? '', agent, described.text, ...changeTexts].join('\u0001')),
    };
  });
}

export function filterEntries(entries: readonly LogEntry[], query: string): LogEntry[] {
  const terms = parseQuery(query);
  if (terms.length === 0) return [...entries];
  return entries.filter((e) => terms.every((term) => e.search.includes(term)));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Entries without a value (no IP) go last either way; ties keep the newest first. */
export function sortEntries(entries: readonly LogEntry[], sort: LogSort): LogEntry[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare = (a: LogEntry, b: LogEntry): number => {
    if (sort.key === 'ip') {
      if (a.ipKey === b.ipKey) return 0;
      if (a.ipKey === null || b.ipKey === null) return a.ipKey === null ? 1 : -1;
      return sign * (a.ipKey < b.ipKey ? -1 : 1);
    }
    if (sort.key === 'user') return sign * collator.compare(a.user, b.user);
    return sign * (a.at - b.at);
  };
  return [...entries].sort((a, b) => compare(a, b) || b.at - a.at || b.row.id - a.row.id);
}

/** A header click: another column sorts (dates newest first, the others A→Z), the same column flips. */
export function nextLogSort(current: LogSort, key: LogSortKey): LogSort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'date' ? 'desc' : 'asc' };
}
