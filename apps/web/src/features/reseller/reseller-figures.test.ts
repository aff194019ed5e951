import { describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { figure, resellerSummary } from './reseller-figures.ts';

const user = (fields: Partial<User>): User => ({
  id: 7, name: 'Revenda', login: null, email: 'r@x.com', phone: null, readonly: false, administrator: false, map: null, latitude: 0, longitude: 0,
  zoom: 0, twelveHourFormat: false, coordinateFormat: null, disabled: false, expirationTime: null, deviceLimit: -1, userLimit: -1,
  deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false, poiLayer: null, temporary: false, attributes: {}, ...fields,
});

describe('reseller figures', () => {
  it('says how much of a limit is used and what is left', () => {
    expect(figure(3, 10)).toEqual({ used: 3, limit: 10, left: 7, full: false, percent: 30 });
    expect(figure(12, 10)).toEqual({ used: 12, limit: 10, left: 0, full: true, percent: 100 });
    expect(figure(0, 0)).toEqual({ used: 0, limit: 0, left: 0, full: true, percent: 100 });
    expect(figure(5, null)).toEqual({ used: 5, limit: null, left: null, full: false, percent: null });
  });

  it('takes the lower of userLimit and the reseller limit, and the device limit', () => {
    const me = user({ userLimit: 20, deviceLimit: 50, attributes: { 'tarkan.reseller': true, 'tarkan.limitReseller': 8, 'tarkan.domainReseller': 'rastro.example.com' } });
    const summary = resellerSummary(me, 8, 12);
    expect(summary.users).toMatchObject({ used: 8, limit: 8, full: true });
    expect(summary.devices).toMatchObject({ used: 12, limit: 50, left: 38 });
    expect(summary.fields).toEqual({ reseller: true, subReseller: false, domain: 'rastro.example.com', limit: 8 });
  });

  it('has no limits when unlimited, or for an administrator', () => {
    expect(resellerSummary(user({ attributes: { 'tarkan.reseller': true } }), 4, 9).users.limit).toBeNull();
    const admin = resellerSummary(user({ administrator: true, userLimit: 0, deviceLimit: 0 }), 40, 90);
    expect(admin.users.limit).toBeNull();
    expect(admin.devices.limit).toBeNull();
  });
});
