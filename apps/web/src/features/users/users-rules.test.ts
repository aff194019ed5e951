import { describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { deleteRefusal, expiryTime, listedUsers, usersAbilities, USER_LINKS } from './users-rules.ts';

const user = (fields: Partial<User>): User => ({
  id: 5, name: 'Ana', login: null, email: 'ana@x.com', phone: null, readonly: false, administrator: false, map: null, latitude: 0, longitude: 0,
  zoom: 0, twelveHourFormat: false, coordinateFormat: null, disabled: false, expirationTime: null, deviceLimit: -1, userLimit: 10,
  deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false, poiLayer: null, temporary: false, attributes: {}, ...fields,
});
const perms = (...bits: number[]) => {
  const flags: boolean[] = [];
  for (const b of bits) flags[b] = true;
  return encodeAdvancedPerms(flags);
};
const plus = { plus: true, attributes: {} };
const advanced = { plus: true, attributes: { 'tarkan.enableAdvancedPerms': true } };
const allLinks = [...USER_LINKS];

describe('users manager rules', () => {
  it('gives administrators everything, logs only with the plus licence', () => {
    const admin = user({ administrator: true, userLimit: 0 });
    expect(usersAbilities(admin, plus)).toEqual({ list: true, add: true, edit: true, remove: true, logs: true, links: allLinks });
    expect(usersAbilities(admin, { plus: false }).logs).toBe(false);
  });

  it('gives a manager the buttons without logs; a user of no users nothing', () => {
    expect(usersAbilities(user({}), plus)).toMatchObject({ list: true, add: true, edit: true, remove: true, logs: false });
    expect(usersAbilities(user({ userLimit: 0 }), plus)).toMatchObject({ list: false, add: false, edit: false, remove: false, links: [] });
  });

  it('puts each button and shortcut under its advanced permission bit', () => {
    const me = user({ attributes: { 'tarkan.advancedPerms': perms(B.users, B.usersEdit, B.devices, B.geofences) } });
    expect(usersAbilities(me, advanced)).toEqual({ list: true, add: false, edit: true, remove: false, logs: false, links: ['devices', 'geofences', 'users'] });
    // Without "edit users" no shortcut at all, whatever the areas.
    const noEdit = user({ attributes: { 'tarkan.advancedPerms': perms(B.users, B.usersDelete, B.devices) } });
    expect(usersAbilities(noEdit, advanced)).toMatchObject({ edit: false, remove: true, links: [] });
    // Without the users area the manager does not open.
    expect(usersAbilities(user({ attributes: { 'tarkan.advancedPerms': perms(B.devices) } }), advanced).list).toBe(false);
  });

  it('lets a read-only account look but change nothing', () => {
    expect(usersAbilities(user({ readonly: true }), plus)).toMatchObject({ list: true, add: false, edit: false, remove: false, links: [] });
    expect(usersAbilities(user({}), { ...plus, readonly: true })).toMatchObject({ add: false, edit: false });
    expect(usersAbilities(user({ administrator: true }), { ...plus, readonly: true })).toMatchObject({ add: true, edit: true });
  });

  it('refuses deleting oneself and a superior administrator', () => {
    const me = user({ id: 5, administrator: true });
    expect(deleteRefusal(me, { id: 5, administrator: true })).toBe('self');
    expect(deleteRefusal(me, { id: 1, administrator: true })).toBe('superior');
    expect(deleteRefusal(me, { id: 9, administrator: true })).toBeNull();
    expect(deleteRefusal(me, { id: 2, administrator: false })).toBeNull();
  });

  it('leaves share-link visitors out and reads expiry dates', () => {
    const list = [user({ id: 1 }), user({ id: 2, attributes: { isShared: true } }), user({ id: 3, attributes: { isShared: false } })];
    expect(listedUsers(list).map((u) => u.id)).toEqual([1, 3]);
    expect(expiryTime(user({ expirationTime: '2030-01-02T00:00:00Z' }))).toBe(Date.UTC(2030, 0, 2));
    expect(expiryTime(user({ expirationTime: null }))).toBeNull();
    expect(expiryTime(user({ expirationTime: 'soon' }))).toBeNull();
  });
});
