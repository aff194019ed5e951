import { describe, expect, it } from 'vitest';
import { buildSearchKey, deviceSearchKey, matchesTerms, normalizeText, parseQuery } from './device-search.ts';

const device = (over: Record<string, unknown> = {}) => ({
  name: 'Caminhão Azul', uniqueId: '8600123', model: 'GT06', phone: null, contact: null,
  attributes: { plate: 'ABC-1D23', color: 'Vermelho', speedLimit: 80, secret: { nested: true } }, ...over,
});

describe('device search', () => {
  it('normalises case and accents', () => {
    expect(normalizeText('CAMINHÃO Ônibus ação')).toBe('caminhao onibus acao');
    expect(parseQuery('  Caminhão   AZUL ')).toEqual(['caminhao', 'azul']);
  });
  it('matches name, plate, uniqueId, attribute values and group name', () => {
    const key = buildSearchKey(device(), 'Filial São Paulo');
    for (const q of ['caminhao', 'CAMINHÃO', 'abc-1d', '8600', 'vermelho', '80', 'sao paulo', 'gt06', 'azul caminhao']) {
      expect(matchesTerms(key, parseQuery(q)), q).toBe(true);
    }
    for (const q of ['moto', 'azul moto', 'nested']) expect(matchesTerms(key, parseQuery(q)), q).toBe(false);
  });
  it('does not match across two fields', () => {
    expect(matchesTerms(buildSearchKey(device()), parseQuery('azul8600'))).toBe(false);
  });
  it('an empty query matches everything', () => {
    expect(matchesTerms('', parseQuery('   '))).toBe(true);
  });
  it('memoises the key per device object and group name', () => {
    const d = device();
    const a = deviceSearchKey(d, 'G1');
    expect(deviceSearchKey(d, 'G1')).toBe(a);
    expect(deviceSearchKey(d, 'Outro')).toContain('outro');
    const changed = { ...d, name: 'Moto' };
    expect(deviceSearchKey(changed, 'G1')).toContain('moto');
  });
});
