// Daily summaries split the period a few weeks at a time (localDays): the same days as
// splitByDay over the whole period, in zones with and without daylight saving time.
import { describe, expect, it } from 'vitest';
import { splitByDay } from '@rastro/domain/report-days';
import { localDays } from './summary.ts';

describe('localDays', () => {
  it('gives exactly splitByDay’s pieces, a window at a time', () => {
    const zones = ['UTC', 'America/Sao_Paulo', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1_664_525 + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    for (const zone of zones) {
      for (let k = 0; k < 8; k++) {
        const from = Date.parse('2019-01-01T00:00:00Z') + Math.floor(rnd() * 4 * 365 * 86_400_000);
        const to = from + Math.floor(rnd() * (k < 4 ? 100 : 800) * 86_400_000);
        expect([...localDays(from, to, zone)], `${zone} ${new Date(from).toISOString()} ${new Date(to).toISOString()}`).toEqual(splitByDay(from, to, zone));
      }
      expect([...localDays(0, 0, zone)]).toEqual(splitByDay(0, 0, zone));
    }
  });
});
