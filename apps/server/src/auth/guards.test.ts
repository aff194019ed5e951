import { describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { UserRow } from '../users/user-json.ts';
import type { ApiError } from '../http/errors.ts';
import { assertAdmin, assertCanWrite, assertCanWriteDevices, assertManager } from './guards.ts';

const user = (fields: Partial<UserRow> = {}): UserRow => ({
  id: 2, name: 'U', login: null, email: 'u@x', phone: null, readonly: 0, administrator: 0, map: null, latitude: 0,
  longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0, expirationTime: null, deviceLimit: -1,
  userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0, poiLayer: null, temporary: 0,
  totpKey: null, hashedPassword: null, salt: null, attributes: '{}', ...fields,
});
const open = { readonly: 0, deviceReadonly: 0 };

function code(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    expect((error as ApiError).status).toBe(400);
    return deriveErrorCode((error as ApiError).message);
  }
}

describe('guards', () => {
  it('refuses readonly users and readonly servers, never administrators', () => {
    expect(code(() => assertCanWrite(user(), open))).toBeNull();
    expect(code(() => assertCanWrite(user({ readonly: 1 }), open))).toBe('ACCOUNT_IS_READONLY');
    expect(code(() => assertCanWrite(user(), { readonly: 1, deviceReadonly: 0 }))).toBe('ACCOUNT_IS_READONLY');
    expect(code(() => assertCanWrite(user({ administrator: 1, readonly: 1 }), { readonly: true, deviceReadonly: true }))).toBeNull();
  });

  it('refuses device changes to deviceReadonly users and servers', () => {
    expect(code(() => assertCanWriteDevices(user(), open))).toBeNull();
    expect(code(() => assertCanWriteDevices(user({ deviceReadonly: 1 }), open))).toBe('ACCOUNT_IS_DEVICE_READONLY');
    expect(code(() => assertCanWriteDevices(user(), { readonly: 0, deviceReadonly: 1 }))).toBe('ACCOUNT_IS_DEVICE_READONLY');
    expect(code(() => assertCanWriteDevices(user({ readonly: 1 }), open))).toBe('ACCOUNT_IS_READONLY');
    expect(code(() => assertCanWriteDevices(user({ administrator: 1, deviceReadonly: 1 }), open))).toBeNull();
  });

  it('checks administrator and manager roles', () => {
    expect(code(() => assertAdmin(user()))).toBe('ADMINISTRATOR_ACCESS_REQUIRED');
    expect(code(() => assertAdmin(user({ administrator: 1 })))).toBeNull();
    expect(code(() => assertManager(user()))).toBe('MANAGER_ACCESS_REQUIRED');
    expect(code(() => assertManager(user({ userLimit: -1 })))).toBeNull();
    expect(code(() => assertManager(user({ userLimit: 3 })))).toBeNull();
    expect(code(() => assertManager(user({ administrator: 1 })))).toBeNull();
  });
});
