import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { idsParam, intParam, listParams } from './list-params.ts';
import { isDeletedUniqueId } from './visibility.ts';

describe('listParams', () => {
  it('reads Traccar list parameters', () => {
    expect(listParams({ all: 'TRUE', userId: '4', keyword: ' van ', limit: '50', offset: '100', excludeAttributes: 'true' })).toEqual({
      all: true, userId: 4, keyword: 'van', limit: 50, offset: 100, excludeAttributes: true,
    });
    // userId=0 and limit=0 mean "not given"
    expect(listParams({ userId: '0', limit: '0' })).toMatchObject({ userId: undefined, limit: undefined, all: false });
  });

  it('answers text that is no number with a 404 naming the parameter, as Traccar does', () => {
    const status = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof ApiError ? `${error.status} ${error.message}` : String(error);
      }
      return 'no error';
    };
    expect(status(() => listParams({ limit: '5x' }))).toMatch(/^404 Invalid limit - /);
    expect(status(() => idsParam({ id: ['1', 'two'] }, 'id'))).toMatch(/^404 Invalid id - "two" is not a whole number/);
    expect(status(() => intParam({ deviceId: '1.5' }, 'deviceId'))).toMatch(/^404 /);
    // A number out of range is a bad value (400), not an unreadable one.
    expect(status(() => idsParam({ id: '-3' }, 'id'))).toMatch(/^400 Invalid id - must be at least 1/);
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
