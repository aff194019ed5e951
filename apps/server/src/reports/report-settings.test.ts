// Report settings: the period limit (server attribute, else RASTRO_REPORT_PERIOD_LIMIT, else
// 366 days; 0 = none) and the report threads' variables, with their defaults and refusals.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { assertPeriodLimit, periodLimitSeconds } from './report-request.ts';

const DAY = 86_400_000;

describe('report.periodLimit', () => {
  it('is on by default (366 days); the configuration sets it; the server attribute, when set, wins; 0 means none', () => {
    expect(periodLimitSeconds({}, {})).toBe(366 * 86_400);
    expect(periodLimitSeconds({}, loadConfig({}).keys)).toBe(366 * 86_400);
    expect(periodLimitSeconds({}, loadConfig({ RASTRO_REPORT_PERIOD_LIMIT: '3600' }).keys)).toBe(3600);
    expect(periodLimitSeconds({ 'report.periodLimit': 60 }, { 'report.periodLimit': 3600 })).toBe(60);
    expect(periodLimitSeconds({ 'report.periodLimit': '120' }, {})).toBe(120);
    expect(periodLimitSeconds({ 'report.periodLimit': 0 }, { 'report.periodLimit': 3600 })).toBe(0);
    // An attribute that is no number is not "set".
    expect(periodLimitSeconds({ 'report.periodLimit': 'soon' }, { 'report.periodLimit': 3600 })).toBe(3600);
    expect(periodLimitSeconds({ 'report.periodLimit': -5 }, {})).toBe(366 * 86_400);
  });

  it('refuses a longer period with a 400 that says the limit', () => {
    expect(() => assertPeriodLimit(0, 366 * DAY, {}, {})).not.toThrow();
    let refusal: unknown;
    try {
      assertPeriodLimit(0, 366 * DAY + 1, {}, {});
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(400);
    expect((refusal as ApiError).message).toBe('Invalid period - reports cover at most 31622400 seconds (366 days); ask for a shorter period');
    expect(() => assertPeriodLimit(0, 100_000 * DAY, {}, { 'report.periodLimit': 0 })).not.toThrow();
    expect(() => assertPeriodLimit(0, 3_601_000, { 'report.periodLimit': 3600 }, {})).toThrow(/^Invalid period - reports cover at most 3600 seconds;/);
  });

  it('RASTRO_REPORT_PERIOD_LIMIT must be a number ≥ 0', () => {
    expect(() => loadConfig({ RASTRO_REPORT_PERIOD_LIMIT: 'year' })).toThrow(ConfigError);
    expect(() => loadConfig({ RASTRO_REPORT_PERIOD_LIMIT: '-1' })).toThrow(/RASTRO_REPORT_PERIOD_LIMIT/);
  });
});

describe('report threads and limits', () => {
  it('defaults: half the cores (1 to 4), 2 per user, 20 waiting, 20 mails', () => {
    const threads = Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2)));
    expect(loadConfig({}).reports).toEqual({ threads, userLimit: 2, queue: 20, mailQueue: 20 });
    expect(
      loadConfig({ RASTRO_REPORT_THREADS: '3', RASTRO_REPORT_USER_LIMIT: '5', RASTRO_REPORT_QUEUE: '0', RASTRO_REPORT_MAIL_QUEUE: '7' }).reports,
    ).toEqual({ threads: 3, userLimit: 5, queue: 0, mailQueue: 7 });
  });

  it.each([
    ['RASTRO_REPORT_THREADS', '0'],
    ['RASTRO_REPORT_THREADS', 'many'],
    ['RASTRO_REPORT_USER_LIMIT', '0'],
    ['RASTRO_REPORT_QUEUE', '-1'],
    ['RASTRO_REPORT_MAIL_QUEUE', '0'],
  ])('refuses %s=%j naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
