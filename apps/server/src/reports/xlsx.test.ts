import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@rastro/domain/language';
import { REPORT_TEXTS, eventNameLanguages } from './report-texts.ts';
import { fileName, formatter, headerOf, sheetName } from './xlsx.ts';
import { acceptLanguage, reportPrefs } from './report-request.ts';

describe('report texts', () => {
  it('every language has every key, none empty', () => {
    const keys = Object.keys(REPORT_TEXTS.en).sort();
    for (const lang of LANGUAGES) {
      expect(Object.keys(REPORT_TEXTS[lang]).sort()).toEqual(keys);
      for (const k of keys) expect(REPORT_TEXTS[lang][k as keyof typeof REPORT_TEXTS.en]).not.toBe('');
    }
    const names = eventNameLanguages();
    for (const lang of LANGUAGES) expect(Object.keys(names[lang]).sort()).toEqual(Object.keys(names.en).sort());
  });
});

describe('spreadsheet helpers', () => {
  it('sheet names are valid and unique', () => {
    const used = new Set<string>();
    expect(sheetName('Truck 1', used)).toBe('Truck 1');
    expect(sheetName('truck 1', used)).toBe('truck 1 (2)');
    expect(sheetName('a/b:c*d?[e]', used)).toBe('a b c d  e');
    expect(sheetName('x'.repeat(40), used)).toHaveLength(31);
    expect(sheetName('x'.repeat(40), used)).toBe(`${'x'.repeat(27)} (2)`);
    expect(sheetName('', used)).toBe('Sheet');
  });

  it('file names use the local days and ASCII only', () => {
    expect(fileName('Resumen', Date.parse('2024-06-02T02:00:00Z'), Date.parse('2024-06-03T02:00:00Z'), 'America/Sao_Paulo')).toBe('resumen_2024-06-01_2024-06-02.xlsx');
    expect(fileName('Direção', 0, 0, 'UTC')).toBe('direcao_1970-01-01_1970-01-01.xlsx');
  });

  it('headers carry the units; values are converted', () => {
    const f = formatter({ language: 'pt-BR', timeZone: 'America/Sao_Paulo', speedUnit: 'mph', distanceUnit: 'mi' });
    expect(headerOf({ header: 'maxSpeed', kind: 'speed', value: () => null }, f)).toBe('Velocidade máxima (mph)');
    expect(headerOf({ header: 'distance', kind: 'distance', value: () => null }, f)).toBe('Distância (mi)');
    expect(f.speed(10)).toBe(11.51);
    expect(f.distance(10_000)).toBe(6.21);
    expect(f.time(Date.parse('2024-06-02T02:00:00Z'))!.toISOString()).toBe('2024-06-01T23:00:00.000Z');
    expect(f.eventType('ignitionOn')).toBe('Ignição ligada');
    expect(f.eventType('somethingNew')).toBe('somethingNew');
  });

  it('language: user attribute, tarkan.lang, Accept-Language, server, then Portuguese', () => {
    expect(reportPrefs({ language: 'es' }, { language: 'en' }, 'en').language).toBe('es');
    expect(reportPrefs({ 'tarkan.lang': 'en' }, {}, 'es').language).toBe('en');
    expect(reportPrefs({}, { language: 'es' }, 'en-GB,pt;q=0.5').language).toBe('en');
    expect(reportPrefs({}, { language: 'es' }, 'de').language).toBe('es');
    expect(reportPrefs({}, {}, undefined).language).toBe('pt-BR');
    expect(acceptLanguage('de-DE, pt;q=0.4, es;q=0.9')).toBe('es');
    expect(acceptLanguage('de')).toBeNull();
  });

  it('time zone and units: user, then server, then defaults', () => {
    expect(reportPrefs({ timezone: 'Asia/Kolkata' }, { timezone: 'UTC' }).timeZone).toBe('Asia/Kolkata');
    expect(reportPrefs({ timezone: 'Nowhere/City' }, { timezone: 'UTC' }).timeZone).toBe('UTC');
    expect(reportPrefs({}, { speedUnit: 'kn', distanceUnit: 'mi' })).toMatchObject({ speedUnit: 'kn', distanceUnit: 'mi' });
    expect(reportPrefs({ speedUnit: 'mph' }, { speedUnit: 'kn' }).speedUnit).toBe('mph');
  });
});
