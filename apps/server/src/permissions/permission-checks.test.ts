import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { parseBulk, parseLink } from './permission-checks.ts';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('expected a refusal');
}

describe('parseLink', () => {
  it('reads the first key as the owner', () => {
    const { kind, link } = parseLink({ userId: 3, deviceId: 8 });
    expect(kind.table).toBe('userDevice');
    expect(link).toEqual({ ownerId: 3, propertyId: 8 });
    expect(parseLink({ deviceId: 1, linkedDeviceId: 2 }).kind.table).toBe('deviceDevice');
    expect(parseLink({ userId: 1, managedUserId: '2' }).kind.table).toBe('userUser');
  });

  it('refuses unknown pairs, reversed pairs, wrong counts and bad ids', () => {
    expect(refusal(() => parseLink({ deviceId: 1, userId: 2 }))).toMatch(/cannot be linked/);
    expect(refusal(() => parseLink({ userId: 1 }))).toMatch(/exactly two keys/);
    expect(refusal(() => parseLink({ userId: 1.5, deviceId: 2 }))).toMatch(/positive id/);
    expect(refusal(() => parseLink({ deviceId: 2, linkedDeviceId: 2 }))).toMatch(/itself/);
    expect(refusal(() => parseLink(null))).toMatch(/^Invalid permission/);
  });
});

describe('parseBulk', () => {
  it('needs a non-empty array with one key pair', () => {
    expect(parseBulk([{ userId: 1, groupId: 2 }, { userId: 1, groupId: 3 }]).links).toHaveLength(2);
    expect(refusal(() => parseBulk([]))).toMatch(/non-empty/);
    expect(refusal(() => parseBulk([{ userId: 1, groupId: 2 }, { userId: 1, deviceId: 3 }]))).toMatch(/same two keys/);
  });
});
