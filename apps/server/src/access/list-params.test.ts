import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { idsParam, listParams } from './list-params.ts';
import { isDeletedUniqueId } from './visibility.ts';

describe('listParams', () => {
  it('reads Traccar list parameters', () => {
    expect(listParams({ all: 'TRUE', userId: '4', keyword: ' van ', limit: '50', offset: '100', excludeAttributes: 'true' })).toEqual({
      all: true, userId: 4, keyword: 'van', limit: 50, offset: 100, excludeAttributes: true,
    });
    // userId=0 and limit=0 mean "not given"
    expect(listParams({ userId: '0', limit: '0' })).toMatchObject({ userId: undefined, limit: undefined, all: false });
  });

  it('refuses non-numbers with a 400 naming the parameter', () => {
    expect(() => listParams({ limit: '5x' })).toThrow(ApiError);
    expect(() => idsParam({ id: ['1', 'two'] }, 'id')).toThrow(/Invalid id/);
    expect(idsParam({ id: ['1', '2'] }, 'id')).toEqual([1, 2]);
    expect(idsParam({ id: '7' }, 'id')).toEqual([7]);
  });
});

describe('isDeletedUniqueId', () => {
  it('recognises safe-mode deleted identifiers', () => {
    expect(isDeletedUniqueId('deleted-12345-1700000000')).toBe(true);
    expect(isDeletedUniqueId('deleted-ab-cd-1700000000')).toBe(true);
    expect(isDeletedUniqueId('deleted-12345')).toBe(false);
    expect(isDeletedUniqueId('12345')).toBe(false);
  });
});
