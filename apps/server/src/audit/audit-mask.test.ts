import { describe, expect, it } from 'vitest';
import { AUDIT_MASK } from '@rastro/domain/audit';
import { isSecretKey, maskSecrets } from './audit-mask.ts';

describe('maskSecrets', () => {
  it('hides passwords, tokens and keys at any depth, keeping empty ones', () => {
    const [data] = maskSecrets({
      name: 'Ana',
      password: 'hunter22',
      totpKey: null,
      attributes: { 'tarkan.driverPassword': 'qr-1234', notificationTokens: ['tok-aaaa', 'tok-bbbb'], color: 'red', smsApiKey: '' },
      nested: [{ token: 'abcd-efgh' }],
    });
    expect(data).toEqual({
      name: 'Ana',
      password: AUDIT_MASK,
      totpKey: null,
      attributes: { 'tarkan.driverPassword': AUDIT_MASK, notificationTokens: AUDIT_MASK, color: 'red', smsApiKey: '' },
      nested: [{ token: AUDIT_MASK }],
    });
  });

  it('hides a secret wherever else its value appears, in data and old alike (a share\'s e-mail is its token)', () => {
    const token = '6f1c1a52-2a4e-4b8e-9a43-0d3f3c1d2e11';
    const [data, old] = maskSecrets({ email: token, attributes: { token } }, { email: token, name: 'visitor' });
    expect(data).toEqual({ email: AUDIT_MASK, attributes: { token: AUDIT_MASK } });
    expect(old).toEqual({ email: AUDIT_MASK, name: 'visitor' });
  });

  it('leaves null rows and ordinary keys alone', () => {
    expect(maskSecrets(null, undefined)).toEqual([null, undefined]);
    expect(['name', 'email', 'speedLimit', 'deviceId'].some(isSecretKey)).toBe(false);
    expect(['password', 'hashedPassword', 'salt', 'token', 'apiKey', 'privateKey'].every(isSecretKey)).toBe(true);
  });
});
