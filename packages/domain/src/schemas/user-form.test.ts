import { describe, expect, it } from 'vitest';
import type { User } from '../entities.ts';
import { decodeAdvancedPerms, encodeAdvancedPerms, PERMISSION_BITS } from '../permissions.ts';
import { userSchema } from './user.ts';
import {
  centsToMoney, formToUser, moneyToCents, readDecimal, userFormSchema, userToForm, type NewUserDefaults, type UserFormValues,
} from './user-form.ts';

const defaults: NewUserDefaults = { expirationTime: null, language: 'es', advancedPerms: null };

function problems(values: UserFormValues): Record<string, string> {
  const result = userFormSchema.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const filled = (): UserFormValues => ({
  ...userToForm(null, defaults),
  name: 'Ana Souza', email: 'ana@example.com', password: 'secret', phone: '+55 11 5555-0000',
  language: 'en', map: 'googleST', latitude: '-23,55', longitude: '-46.63', zoom: '12', twelveHourFormat: true, coordinateFormat: 'dms',
  speedUnit: 'mph', distanceUnit: 'mi', volumeUnit: 'usGal', timezone: 'America/Sao_Paulo', clustered: false,
  zip: '01001-000', street: 'Praça da Sé', number: '100', complement: 'Sala 2', district: 'Sé', city: 'São Paulo', state: 'SP',
  disabled: true, administrator: false, readonly: true, deviceReadonly: false, limitCommands: true, deviceLimit: '25', userLimit: '-1',
  expirationTime: '2031-02-03T04:05:06.000Z', reseller: true, subReseller: true, resellerDomain: 'Track.Example.com', resellerLimit: '40',
  billingEnabled: true, billingTaxId: '123.456.789-09', billingTrustUnlock: true, billingTrustUnlockDays: '3', billingSuspension: true,
  billingSuspensionDays: '10', billingDescription: 'Mensalidade', billingDueDay: '5', billingPrice: '49,90', billingFine: '2',
  billingFineMode: 'PERCENTAGE', billingInterest: '1,5', billingDiscount: '5', billingDiscountMode: 'FIXED', billingDiscountDays: '2',
  personalPhone: '1', commercialPhone: '2', whatsapp: '+5511999990000', contactEmail: 'contato@example.com', telegramChatId: '-100123',
});

const all = { writeAdvancedPerms: false, writeReseller: true, writeBilling: true };

describe('user form: new-user defaults (tarkan-reference §3.13.3)', () => {
  it('starts with no devices of its own, no users, device-readonly, commands allowed, the server language', () => {
    const v = userToForm(null, { expirationTime: '2030-01-01T00:00:00.000Z', language: 'pt-BR', advancedPerms: null });
    expect(v).toMatchObject({
      id: -1, deviceLimit: '0', userLimit: '0', deviceReadonly: true, limitCommands: false, administrator: false, readonly: false,
      disabled: false, expirationTime: '2030-01-01T00:00:00.000Z', language: 'pt-BR', clustered: true, advancedPerms: null,
    });
  });
});

describe('user form: validation (spec §5)', () => {
  it('name ≥ 3 ("type a name and surname"), e-mail ≥ 4, password ≥ 4 for new users', () => {
    const empty = problems({ ...userToForm(null, defaults) });
    expect(empty.name).toBe('Name is required - type a name and surname');
    expect(empty.email).toMatch(/^Email is required - /);
    expect(empty.password).toMatch(/^Password is required - /);
    const short = problems({ ...filled(), name: ' Al ', email: 'a@b', password: 'abc' });
    expect(short).toEqual({ name: 'at least 3 characters', email: 'at least 4 characters', password: 'at least 4 characters' });
  });

  it('on an existing user an empty password keeps it; a new one still needs 4 characters', () => {
    expect(problems({ ...filled(), id: 7, password: '' })).toEqual({});
    expect(problems({ ...filled(), id: 7, password: 'abc' }).password).toBe('at least 4 characters');
  });

  it('numbers in range, limits whole, dates real, domain a host name, billing sensible', () => {
    expect(problems({
      ...filled(), latitude: '91', longitude: 'x', zoom: '2.5', deviceLimit: '', userLimit: '-2', expirationTime: '2030-02-30T00:00:00Z',
      resellerDomain: 'http://x', billingTaxId: '123', billingDueDay: '32', billingPrice: '1,234', billingInterest: '101',
      billingFine: '150', billingTrustUnlockDays: '', telegramChatId: '@me',
    })).toEqual({
      latitude: 'must be a number from -90 to 90 degrees',
      longitude: 'must be a number from -180 to 180 degrees',
      zoom: 'must be a whole number from 0 to 24',
      deviceLimit: 'a whole number is required - -1 for unlimited',
      userLimit: 'must be a whole number from -1 to 1000000000',
      expirationTime: 'must be a date',
      resellerDomain: 'must be a host name like track.example.com',
      billingTaxId: 'must have 11 (CPF) or 14 (CNPJ) digits',
      billingDueDay: 'must be a whole number from 1 to 31',
      billingPrice: 'must be a number from 0 to 1000000000',
      billingInterest: 'must be a number from 0 to 100',
      billingFine: 'must be a number from 0 to 100',
      billingTrustUnlockDays: 'Days are required - how many days the unlock lasts',
      telegramChatId: 'must be a whole number (a chat id)',
    });
    expect(problems({ ...filled(), billingFineMode: 'FIXED', billingFine: '150' })).toEqual({});
  });
});

describe('user form: to the API and back', () => {
  it('every field survives the round trip, and the body passes the API schema', () => {
    const values = filled();
    expect(problems(values)).toEqual({});
    const body = formToUser(values, null, all);
    expect(userSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      name: 'Ana Souza', email: 'ana@example.com', password: 'secret', latitude: -23.55, longitude: -46.63, zoom: 12, map: 'googleST',
      coordinateFormat: 'dms', deviceLimit: 25, userLimit: -1, expirationTime: '2031-02-03T04:05:06.000Z',
    });
    expect(body.attributes).toEqual({
      'tarkan.lang': 'en', speedUnit: 'mph', distanceUnit: 'mi', volumeUnit: 'usGal', timezone: 'America/Sao_Paulo',
      'tarkan.mapPref.clustered': false,
      'tarkan.cep': '01001-000', 'tarkan.rua': 'Praça da Sé', 'tarkan.numero': '100', 'tarkan.complemento': 'Sala 2', 'tarkan.bairro': 'Sé',
      'tarkan.cidade': 'São Paulo', 'tarkan.estado': 'SP',
      'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.domainReseller': 'track.example.com', 'tarkan.limitReseller': 40,
      'tarkan.enableBilling': true, 'tarkan.billingCpfCnpj': '123.456.789-09', 'tarkan.billingTrustUnlock': 1, 'tarkan.billingTrustUnlockDays': 3,
      'tarkan.billingSuspension': 1, 'tarkan.billingSuspensionDays': 10, 'tarkan.billingDescription': 'Mensalidade', 'tarkan.billingDate': 5,
      'tarkan.billingPrice': 4990, 'tarkan.billingFine': 2, 'tarkan.billingFineMode': 'PERCENTAGE', 'tarkan.billingInterest': 1.5,
      'tarkan.billingDisccount': 5, 'tarkan.billingDisccountMode': 'FIXED', 'tarkan.billingDisccountDays': 2,
      'tarkan.personalPhone': '1', 'tarkan.commercialPhone': '2', 'tarkan.whatsapp': '+5511999990000', 'tarkan.contactEmail': 'contato@example.com',
      telegramChatId: '-100123',
    });
    const stored = { ...body, id: 9, password: null } as unknown as User;
    const again = userToForm(stored, defaults);
    expect(again).toEqual({
      ...values, id: 9, password: '', latitude: '-23.55', resellerDomain: 'track.example.com', billingInterest: '1.5',
    });
  });

  it('keeps attributes the form does not know and removes cleared ones', () => {
    const original = { ...formToUser(filled(), null, all), id: 3, attributes: { ...formToUser(filled(), null, all).attributes, custom: 'x' } } as User;
    const body = formToUser({ ...userToForm(original, defaults), street: '', whatsapp: '  ', reseller: false }, original, all);
    expect(body.attributes.custom).toBe('x');
    expect(body.attributes['tarkan.rua']).toBeUndefined();
    expect(body.attributes['tarkan.whatsapp']).toBeUndefined();
    expect(body.attributes['tarkan.reseller']).toBeUndefined();
    expect(body.attributes['tarkan.domainReseller']).toBeUndefined();
    expect(body.id).toBe(3);
    expect('password' in body).toBe(false);
  });

  it('writes the advanced flags (and clears readonly, deviceReadonly, limitCommands) only when the editor was shown', () => {
    const flags = Array.from({ length: 128 }, (_, i) => i === PERMISSION_BITS.devices || i === PERMISSION_BITS.devicesLock);
    const values = { ...filled(), advancedPerms: flags, readonly: true, deviceReadonly: true, limitCommands: true };
    const shown = formToUser(values, null, { ...all, writeAdvancedPerms: true });
    expect(shown.attributes['tarkan.advancedPerms']).toBe(encodeAdvancedPerms(flags));
    expect(decodeAdvancedPerms(shown.attributes['tarkan.advancedPerms'])).toEqual(flags);
    expect(shown).toMatchObject({ readonly: false, deviceReadonly: false, limitCommands: false });
    const hidden = formToUser(values, null, all);
    expect(hidden.attributes['tarkan.advancedPerms']).toBeUndefined();
    expect(hidden).toMatchObject({ readonly: true, deviceReadonly: true, limitCommands: true });
    // Shown but untouched on a user without flags (every switch on screen): nothing written, so
    // the user keeps every right instead of losing them all to an empty set.
    const untouched = formToUser({ ...filled(), advancedPerms: null }, null, { ...all, writeAdvancedPerms: true });
    expect(untouched.attributes['tarkan.advancedPerms']).toBeUndefined();
    // Reseller and billing attributes are left alone when their parts were not shown.
    const plain = formToUser(values, { id: 2, attributes: { 'tarkan.billingPrice': 100, 'tarkan.reseller': true } } as unknown as User,
      { writeAdvancedPerms: false, writeReseller: false, writeBilling: false });
    expect(plain.attributes).toMatchObject({ 'tarkan.billingPrice': 100, 'tarkan.reseller': true });
  });

  it('reads money and decimals as people type them', () => {
    expect(moneyToCents('49,90')).toBe(4990);
    expect(moneyToCents('49.9')).toBe(4990);
    expect(moneyToCents('7')).toBe(700);
    expect(moneyToCents('1,234')).toBeNull();
    expect(centsToMoney(4990)).toBe('49,90');
    expect(centsToMoney(5)).toBe('0,05');
    expect(readDecimal(' -1,5 ')).toBe(-1.5);
    expect(readDecimal('1e3')).toBeNull();
  });
});
