import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/user-json.ts';
import { restrictedAccountRefusal } from './restricted-accounts.ts';

const user = (attributes: Record<string, unknown>) => ({ administrator: 0, attributes: JSON.stringify(attributes) }) as unknown as UserRow;
const visitor = user({ isShared: true });
const driver = user({ 'tarkan.isQrDriverId': 7 });
const customer = user({});

describe('share visitors and QR drivers', () => {
  it('refuses their writes but keeps their session mechanics and command sending', () => {
    for (const who of [visitor, driver]) {
      expect(restrictedAccountRefusal('PUT', '/api/users/:id', who)).toMatch(/only/);
      expect(restrictedAccountRefusal('POST', '/api/notifications/test', who)).toMatch(/only/);
      expect(restrictedAccountRefusal('DELETE', '/api/commands/log/:id', who)).toMatch(/only/);
      expect(restrictedAccountRefusal('DELETE', '/api/session', who)).toBeNull();
      expect(restrictedAccountRefusal('POST', '/api/session/token', who)).toBeNull();
      expect(restrictedAccountRefusal('POST', '/api/password/reset', who)).toBeNull();
      expect(restrictedAccountRefusal('POST', '/api/commands/send', who)).toBeNull();
      expect(restrictedAccountRefusal('GET', '/api/devices', who)).toBeNull();
    }
  });

  it('gives QR drivers no live feed and no positions; visitors keep them', () => {
    expect(restrictedAccountRefusal('GET', '/api/socket', driver)).toMatch(/QR driver/);
    expect(restrictedAccountRefusal('HEAD', '/api/positions', driver)).toMatch(/QR driver/);
    expect(restrictedAccountRefusal('GET', '/api/socket', visitor)).toBeNull();
    expect(restrictedAccountRefusal('GET', '/api/positions', visitor)).toBeNull();
  });

  it('leaves everyone else alone', () => {
    expect(restrictedAccountRefusal('PUT', '/api/users/:id', customer)).toBeNull();
    expect(restrictedAccountRefusal('GET', '/api/socket', customer)).toBeNull();
  });
});
