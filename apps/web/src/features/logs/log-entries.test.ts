import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '@rastro/domain/audit';
import { initTestI18n } from '../../i18n/test-i18n.ts';
import i18next from '../../i18n/translator.ts';
import { DEFAULT_LOG_SORT, filterEntries, nextLogSort, sortEntries, toEntries, type LogEntry } from './log-entries.ts';

const t = i18next.t.bind(i18next);
let next = 0;
const row = (fields: Partial<AuditRow>): AuditRow => ({
  id: ++next, created_at: '2024-05-01T12:00:00.000Z', code: 101, userId: 1, username: 'admin', userIp: '10.0.0.1', userAgent: null,
  objectType: 'user', objectId: 1, data: { email: 'admin' }, old: null, status: 200, ...fields,
});

const rows = [
  row({ created_at: '2024-05-01T10:00:00Z', username: 'bruno@x.com', userIp: '10.0.0.10' }),
  row({ created_at: '2024-05-01T12:00:00Z', username: 'Ana@x.com', userIp: '10.0.0.9',
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36' }),
  row({ created_at: '2024-05-01T11:00:00Z', username: 'carla@x.com', userIp: null, code: 105, objectId: 4,
    old: { name: 'Carla', phone: '1111' }, data: { name: 'Carla', phone: '2222' } }),
  row({ created_at: '2024-05-01T09:00:00Z', username: 'dani@x.com', userIp: '9.1.1.1' }),
];
let entries: LogEntry[] = [];
// The sentences are read in the user's language: after the texts are in.
beforeAll(async () => {
  await initTestI18n('pt-BR');
  entries = toEntries(rows, t, () => null, (ms) => new Date(ms).toISOString());
});
const order = (list: { row: AuditRow }[]) => list.map((e) => e.row.username);

describe('log entries', () => {
  it('sort by date (newest first by default), user (A→Z, any case) and IP numerically, no IP last either way', () => {
    expect(order(sortEntries(entries, DEFAULT_LOG_SORT))).toEqual(['Ana@x.com', 'carla@x.com', 'bruno@x.com', 'dani@x.com']);
    expect(order(sortEntries(entries, { key: 'date', direction: 'asc' }))).toEqual(['dani@x.com', 'bruno@x.com', 'carla@x.com', 'Ana@x.com']);
    expect(order(sortEntries(entries, { key: 'user', direction: 'asc' }))).toEqual(['Ana@x.com', 'bruno@x.com', 'carla@x.com', 'dani@x.com']);
    expect(order(sortEntries(entries, { key: 'ip', direction: 'asc' }))).toEqual(['dani@x.com', 'Ana@x.com', 'bruno@x.com', 'carla@x.com']);
    expect(order(sortEntries(entries, { key: 'ip', direction: 'desc' }))).toEqual(['bruno@x.com', 'Ana@x.com', 'dani@x.com', 'carla@x.com']);
  });

  it('flips the same column, starts another one in its natural direction', () => {
    expect(nextLogSort(DEFAULT_LOG_SORT, 'date')).toEqual({ key: 'date', direction: 'asc' });
    expect(nextLogSort(DEFAULT_LOG_SORT, 'ip')).toEqual({ key: 'ip', direction: 'asc' });
    expect(nextLogSort({ key: 'ip', direction: 'asc' }, 'date')).toEqual({ key: 'date', direction: 'desc' });
  });

  it('searches the user, address, device, sentence and changed values, accents and case aside', () => {
    expect(order(filterEntries(entries, 'pixel'))).toEqual(['Ana@x.com']);
    expect(order(filterEntries(entries, '10.0.0.1'))).toEqual(['bruno@x.com']);
    expect(order(filterEntries(entries, '2222'))).toEqual(['carla@x.com']);
    expect(order(filterEntries(entries, 'editou usuario carla'))).toEqual(['carla@x.com']);
    expect(order(filterEntries(entries, 'ENTROU dani'))).toEqual(['dani@x.com']);
    expect(filterEntries(entries, '  ')).toHaveLength(4);
    expect(filterEntries(entries, 'nobody')).toEqual([]);
  });
});
