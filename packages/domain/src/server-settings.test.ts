import { describe, expect, it } from 'vitest';
import {
  applyServerSettings, attributeRowProblem, changesServerDeviceLimit, mayChangeServerDeviceLimit, QR_DRIVER_KEYS,
  readServerDeviceLimit, serverAttributeIssues, serverSettingsForm, serverSettingsFormSchema, settingOn,
  type ServerSettings, type ServerSettingsForm, type ServerSettingsSource,
} from './server-settings.ts';

const server = (attributes: Record<string, unknown> = {}): ServerSettingsSource => ({
  id: 1, registration: false, readonly: false, deviceReadonly: false, limitCommands: true, map: null,
  latitude: -23.55, longitude: -46.63, zoom: 12, coordinateFormat: null, attributes,
});

const parse = (form: ServerSettingsForm): ServerSettings => {
  const result = serverSettingsFormSchema.safeParse(form);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
};

const problems = (form: ServerSettingsForm) => {
  const result = serverSettingsFormSchema.safeParse(form);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('reading stored settings', () => {
  it('reads options as any client stored them, with their defaults when unset', () => {
    expect(settingOn(true)).toBe(true);
    expect(settingOn('true')).toBe(true);
    expect(settingOn(1)).toBe(true);
    expect(settingOn('1')).toBe(true);
    expect(settingOn('false', true)).toBe(false);
    expect(settingOn(0, true)).toBe(false);
    expect(settingOn(undefined, true)).toBe(true);
    expect(settingOn('', true)).toBe(true);
    expect(settingOn(null)).toBe(false);
  });

  it('reads the device limit: unset, zero, negative and junk are "none" (-1)', () => {
    expect(readServerDeviceLimit(undefined)).toBe(-1);
    expect(readServerDeviceLimit(0)).toBe(-1);
    expect(readServerDeviceLimit('0')).toBe(-1);
    expect(readServerDeviceLimit(-1)).toBe(-1);
    expect(readServerDeviceLimit('abc')).toBe(-1);
    expect(readServerDeviceLimit('25')).toBe(25);
    expect(readServerDeviceLimit(40)).toBe(40);
    expect(changesServerDeviceLimit({ 'tarkan.deviceLimit': -1 }, {})).toBe(false);
    expect(changesServerDeviceLimit({ 'tarkan.deviceLimit': '10' }, { 'tarkan.deviceLimit': 10 })).toBe(false);
    expect(changesServerDeviceLimit({ 'tarkan.deviceLimit': 11 }, { 'tarkan.deviceLimit': 10 })).toBe(true);
  });

  it('lets only the first administrator change the device limit', () => {
    expect(mayChangeServerDeviceLimit({ id: 1, administrator: true })).toBe(true);
    expect(mayChangeServerDeviceLimit({ id: 2, administrator: true })).toBe(false);
    expect(mayChangeServerDeviceLimit({ id: 1, administrator: false })).toBe(false);
  });

  it('fills the form from the server, the generic tab without the product keys', () => {
    const form = serverSettingsForm(server({
      'tarkan.lang': 'es', google_api: 'KEY', 'tarkan.deviceLimit': '30', 'tarkan.enableStops': 'true',
      'tarkan.deviceAttributes': 'ignition', speedLimit: 80, title: 'Frota', nested: { a: 1 },
      [QR_DRIVER_KEYS.logoutOnIgnitionOff]: true, [QR_DRIVER_KEYS.logoutAfterMinutes]: 3,
    }));
    expect(form).toMatchObject({
      language: 'es', googleApiKey: 'KEY', sendCommands: false, deviceLimitUnlimited: false, deviceLimit: 30,
      logoutOnIgnitionOff: true, logoutAfterMinutes: 3, lockWithoutDriver: false, lockAfterMinutes: '',
    });
    expect(form.options).toEqual({
      lockUnlock: true, lazyDeletion: false, qrDriver: false, advancedPerms: false, billing: false, stops: true, events: false,
    });
    expect(form.attributes).toEqual([
      { key: 'speedLimit', value: '80' }, { key: 'title', value: 'Frota' }, { key: 'nested', value: '{"a":1}' },
    ]);
  });
});

describe('the settings form', () => {
  it('round-trips a server unchanged: every stored value kept as it was', () => {
    const stored = server({
      'tarkan.lang': 'pt', 'tarkan.deviceLimit': '0', 'tarkan.enableLazyDeletion': 'true', speedLimit: 80, nested: { a: 1 },
      'tarkan.logoWidth': 120,
    });
    const body = applyServerSettings(stored, parse(serverSettingsForm(stored)));
    expect(body).toEqual(stored);
  });

  it('writes real booleans, whole minutes and the limit for what changed, and removes cleared keys', () => {
    const stored = server({ 'tarkan.lang': 'es', google_api: 'OLD', 'tarkan.enableStops': 'true', title: 'Frota', gone: 'x' });
    const form = serverSettingsForm(stored);
    const settings = parse({
      ...form, language: '', googleApiKey: '  ', map: 'googleSN', coordinateFormat: 'dms', latitude: '-10.5', zoom: 8,
      sendCommands: true, deviceLimitUnlimited: false, deviceLimit: '12',
      options: { ...form.options, stops: false, qrDriver: true },
      logoutOnIgnitionOff: true, logoutAfterMinutes: 4, lockWithoutDriver: true, lockAfterMinutes: '2', unlockOnCheckIn: true,
      attributes: [{ key: 'title', value: 'Frota Sul' }, { key: ' speedLimit ', value: '90' }],
    });
    const body = applyServerSettings(stored, settings);
    expect(body).toMatchObject({ map: 'googleSN', coordinateFormat: 'dms', latitude: -10.5, zoom: 8, limitCommands: false });
    expect(body.attributes).toEqual({
      'tarkan.deviceLimit': 12, 'tarkan.enableStops': false, 'tarkan.enableQrDriverId': true,
      [QR_DRIVER_KEYS.unlockOnCheckIn]: true, [QR_DRIVER_KEYS.logoutOnIgnitionOff]: true, [QR_DRIVER_KEYS.logoutAfterMinutes]: 4,
      [QR_DRIVER_KEYS.lockWithoutDriver]: true, [QR_DRIVER_KEYS.lockAfterMinutes]: 2,
      title: 'Frota Sul', speedLimit: '90',
    });
    // What the server then checks passes.
    expect(serverAttributeIssues(body.attributes, stored.attributes)).toEqual([]);
  });

  it('reports every problem under its field', () => {
    const form = serverSettingsForm(server());
    const found = problems({
      ...form, latitude: 91, longitude: '', zoom: 2.5, deviceLimitUnlimited: false, deviceLimit: 0,
      logoutOnIgnitionOff: true, logoutAfterMinutes: '', lockWithoutDriver: true, lockAfterMinutes: 61,
      attributes: [{ key: '', value: 'x' }, { key: 'a', value: '1' }, { key: 'a', value: '2' }, { key: 'tarkan.x', value: '3' }],
    });
    expect(found).toEqual({
      latitude: 'must be a number from -90 to 90 degrees',
      longitude: 'must be a number from -180 to 180 degrees',
      zoom: 'must be a whole number from 0 to 24',
      deviceLimit: 'must be a whole number from 1 to 1000000000',
      logoutAfterMinutes: expect.stringMatching(/^Logout timeout is required - /),
      lockAfterMinutes: 'must be a whole number from 1 to 60 minutes',
      'attributes.0': expect.stringMatching(/ is required - /),
      'attributes.1': 'Invalid attribute - duplicate name',
      'attributes.2': 'Invalid attribute - duplicate name',
      'attributes.3': 'Invalid attribute - reserved name',
    });
  });

  it('keeps a valid timeout of a rule switched off and drops an invalid one', () => {
    const form = serverSettingsForm(server());
    const settings = parse({ ...form, logoutOnIgnitionOff: false, logoutAfterMinutes: 5, lockWithoutDriver: false, lockAfterMinutes: 99 });
    expect(settings.qrDriver).toMatchObject({ logoutAfterMinutes: 5, lockAfterMinutes: null });
  });

  it('names row problems', () => {
    const rows = [{ key: 'a', value: '' }, { key: ' a', value: '' }, { key: 'google_api', value: '' }, { key: ' ', value: '' }, { key: 'b', value: '' }];
    expect(rows.map((_, i) => attributeRowProblem(rows, i))).toEqual(['duplicate', 'duplicate', 'reserved', 'empty', null]);
  });
});

describe('PUT /api/server attribute checks', () => {
  it('accepts what the existing product stored and what the form writes', () => {
    const attrs = {
      'tarkan.lang': 'pt-BR', google_api: 'k', 'tarkan.deviceLimit': '25', 'tarkan.enableStops': 'true', 'tarkan.enableEvents': 1,
      'tarkan.enableLockUnlock': false, [QR_DRIVER_KEYS.lockWithoutDriver]: true, [QR_DRIVER_KEYS.lockAfterMinutes]: 60, other: { x: [1] },
    };
    expect(serverAttributeIssues(attrs, {})).toEqual([]);
  });

  it('refuses changed values of the wrong kind, naming the key', () => {
    const issues = serverAttributeIssues({
      'tarkan.lang': 'fr', 'tarkan.deviceLimit': -2, 'tarkan.enableBilling': 'yes', [QR_DRIVER_KEYS.unlockOnCheckIn]: 'true',
      [QR_DRIVER_KEYS.logoutAfterMinutes]: 0,
    }, {});
    expect(issues).toEqual([
      { path: ['tarkan.lang'], message: 'must be one of pt-BR, es, en' },
      { path: ['tarkan.deviceLimit'], message: 'must be a whole number from -1 to 1000000000 (-1 is unlimited)' },
      { path: ['tarkan.enableBilling'], message: 'must be true or false' },
      { path: [QR_DRIVER_KEYS.unlockOnCheckIn], message: 'must be true or false' },
      { path: [QR_DRIVER_KEYS.logoutAfterMinutes], message: 'must be a whole number from 1 to 60 minutes' },
    ]);
  });

  it('needs the timeout of a rule switched on', () => {
    const issues = serverAttributeIssues({ [QR_DRIVER_KEYS.lockWithoutDriver]: true }, {});
    expect(issues).toEqual([{ path: [QR_DRIVER_KEYS.lockAfterMinutes], message: expect.stringMatching(/^Lock timeout is required - /) }]);
  });

  it('leaves alone a value stored earlier that it would refuse, unless it changes', () => {
    const stored = { 'tarkan.enableBilling': 'yes', 'tarkan.lang': 'fr' };
    expect(serverAttributeIssues({ ...stored, title: 'x' }, stored)).toEqual([]);
    expect(serverAttributeIssues({ ...stored, 'tarkan.lang': 'de' }, stored)).toHaveLength(1);
  });
});
