// The server settings (spec §3 Server, §6 server-wide options and QR driver rules,
// tarkan-reference §3.13.8): which server attributes hold what, the checks PUT /api/server
// applies to them, and the settings form (its values, its zod schema, and the way a saved form
// goes back into the Server object). The server validates with `serverAttributeIssues`, the
// web client's dialog with `serverSettingsFormSchema`, so both refuse the same values.
//
// Stored values written by the existing product are read leniently ("true" for true, a limit as
// text) and never rewritten unless the administrator changes them: a save that leaves an option
// alone keeps its stored value byte for byte.
import { z } from './zod.ts';
import { LANGUAGES, normalizeLanguage, type Language } from './language.ts';
import { inRange, rangeText, type RangeName } from './schemas/ranges.ts';
import { TEXT_MAX } from './schemas/fields.ts';
import { textProblem } from './schemas/text.ts';

/** Attributes of the preferences and permissions tabs. */
export const SERVER_KEYS = {
  language: 'tarkan.lang',
  googleApiKey: 'google_api',
  deviceLimit: 'tarkan.deviceLimit',
} as const;

export type ServerOptionId = 'lockUnlock' | 'lazyDeletion' | 'qrDriver' | 'advancedPerms' | 'billing' | 'stops' | 'events';

export interface ServerOption {
  id: ServerOptionId;
  key: string;
  /** Only in effect with the plus licence (tarkan-reference §3.13.8); the form disables it otherwise. */
  plusOnly: boolean;
  /** Value when the attribute is not set. */
  defaultOn: boolean;
}

/** Every switchable option of spec §6 that lives in the attributes, in the form's order. */
export const SERVER_OPTIONS: readonly ServerOption[] = [
  // Lock / unlock buttons: shown unless switched off (the device detail's reading).
  { id: 'lockUnlock', key: 'tarkan.enableLockUnlock', plusOnly: false, defaultOn: true },
  { id: 'lazyDeletion', key: 'tarkan.enableLazyDeletion', plusOnly: true, defaultOn: false },
  { id: 'qrDriver', key: 'tarkan.enableQrDriverId', plusOnly: true, defaultOn: false },
  { id: 'advancedPerms', key: 'tarkan.enableAdvancedPerms', plusOnly: true, defaultOn: false },
  { id: 'billing', key: 'tarkan.enableBilling', plusOnly: false, defaultOn: false },
  { id: 'stops', key: 'tarkan.enableStops', plusOnly: true, defaultOn: false },
  { id: 'events', key: 'tarkan.enableEvents', plusOnly: true, defaultOn: false },
];

/**
 * The QR driver rules (spec §6): unlock the vehicle when a driver checks in; log the driver out
 * some minutes after the ignition turns off; lock a vehicle whose ignition is on without a
 * checked-in driver after some minutes. Rastro's own keys (the existing product kept these per
 * device and per driver, tarkan-reference §7.5); real booleans and whole minutes.
 */
export const QR_DRIVER_KEYS = {
  unlockOnCheckIn: 'tarkan.qrDriver.unlockOnCheckIn',
  logoutOnIgnitionOff: 'tarkan.qrDriver.logoutOnIgnitionOff',
  logoutAfterMinutes: 'tarkan.qrDriver.logoutAfterMinutes',
  lockWithoutDriver: 'tarkan.qrDriver.lockWithoutDriver',
  lockAfterMinutes: 'tarkan.qrDriver.lockAfterMinutes',
} as const;

/**
 * A rule's timeout. The existing product offered 1 to 5 minutes; an hour leaves room for fleets
 * whose stops are longer without letting a typo lock a vehicle days later.
 */
export const QR_MINUTES = { min: 1, max: 60 } as const;

/** Who may change the server-wide device limit (tarkan-reference §5.2): the first administrator. */
export const FIRST_ADMINISTRATOR_ID = 1;

/** An option's value as stored by any client: true, "true", 1 or "1" are on; unset is `fallback`. */
export function settingOn(value: unknown, fallback = false): boolean {
  if (value === undefined || value === null || value === '') return fallback;
  return value === true || value === 'true' || value === 1 || value === '1';
}

/** `tarkan.deviceLimit` as the form shows it: the limit, or -1 for none (unset, 0, negative, unreadable). */
export function readServerDeviceLimit(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && Math.trunc(n) > 0 ? Math.trunc(n) : -1;
}

/** Only the first administrator may change the server device limit. */
export function mayChangeServerDeviceLimit(user: { id: number; administrator?: boolean | null }): boolean {
  return user.administrator === true && user.id === FIRST_ADMINISTRATOR_ID;
}

// ---------------------------------------------------------------------------------------------
// PUT /api/server: the attributes above, checked when they change.

type Issues = z.core.$RefinementCtx<unknown>;

const FLAG_TEXT = 'must be true or false';
const MINUTES_TEXT = `must be a whole number from ${QR_MINUTES.min} to ${QR_MINUTES.max} minutes`;
const DEVICE_LIMIT_TEXT = 'must be a whole number from -1 to 1000000000 (-1 is unlimited)';
const LANGUAGE_TEXT = `must be one of ${LANGUAGES.join(', ')}`;

/** Options written by the existing product may be texts; ours are real booleans. */
const legacyFlag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0), z.null()], { error: FLAG_TEXT });
const strictFlag = z.boolean({ error: FLAG_TEXT });

function wholeFrom(min: number, max: number, message: string) {
  return z.number({ error: message }).check((ctx) => {
    if (!Number.isInteger(ctx.value) || ctx.value < min || ctx.value > max) ctx.issues.push({ code: 'custom', message, input: ctx.value });
  });
}

const minutes = wholeFrom(QR_MINUTES.min, QR_MINUTES.max, MINUTES_TEXT);

const deviceLimitValue = z.union([z.number(), z.string(), z.null()], { error: DEVICE_LIMIT_TEXT }).check((ctx) => {
  const v = ctx.value;
  if (v === null) return;
  const n = typeof v === 'string' ? (/^\s*-?\d{1,10}\s*$/.test(v) ? Number(v) : NaN) : v;
  if (!Number.isInteger(n) || !inRange('limit', n)) ctx.issues.push({ code: 'custom', message: DEVICE_LIMIT_TEXT, input: v });
});

const languageValue = z.union([z.string(), z.null()], { error: LANGUAGE_TEXT }).check((ctx) => {
  const v = ctx.value;
  if (v !== null && v.trim() !== '' && normalizeLanguage(v) === null) ctx.issues.push({ code: 'custom', message: LANGUAGE_TEXT, input: v });
});

const keyText = z.union([z.string(), z.null()], { error: 'must be text' }).check((ctx) => {
  const v = ctx.value;
  if (v === null) return;
  const problem = v.length > TEXT_MAX ? `at most ${TEXT_MAX} characters` : textProblem(v);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: v });
});

/** A rule switched on needs its timeout: the minutes key → the rule key it belongs to. */
const TIMEOUT_OF: Record<string, string> = {
  [QR_DRIVER_KEYS.logoutAfterMinutes]: QR_DRIVER_KEYS.logoutOnIgnitionOff,
  [QR_DRIVER_KEYS.lockAfterMinutes]: QR_DRIVER_KEYS.lockWithoutDriver,
};

const TIMEOUT_REQUIRED: Record<string, string> = {
  [QR_DRIVER_KEYS.logoutAfterMinutes]: 'Logout timeout is required - set the minutes after ignition off before the driver is logged out',
  [QR_DRIVER_KEYS.lockAfterMinutes]: 'Lock timeout is required - set the minutes a vehicle may run without a driver before it is locked',
};

/** The known server attributes (others pass untouched), as PUT /api/server checks them. */
export const serverAttributesSchema = z
  .object({
    [SERVER_KEYS.language]: languageValue.optional(),
    [SERVER_KEYS.googleApiKey]: keyText.optional(),
    [SERVER_KEYS.deviceLimit]: deviceLimitValue.optional(),
    ...Object.fromEntries(SERVER_OPTIONS.map((o) => [o.key, legacyFlag.optional()])),
    [QR_DRIVER_KEYS.unlockOnCheckIn]: strictFlag.optional(),
    [QR_DRIVER_KEYS.logoutOnIgnitionOff]: strictFlag.optional(),
    [QR_DRIVER_KEYS.logoutAfterMinutes]: minutes.optional(),
    [QR_DRIVER_KEYS.lockWithoutDriver]: strictFlag.optional(),
    [QR_DRIVER_KEYS.lockAfterMinutes]: minutes.optional(),
  })
  .loose()
  .superRefine((attrs, ctx: Issues) => {
    for (const [timeoutKey, ruleKey] of Object.entries(TIMEOUT_OF)) {
      if (attrs[ruleKey] === true && attrs[timeoutKey] === undefined) {
        ctx.addIssue({ code: 'custom', message: TIMEOUT_REQUIRED[timeoutKey]!, path: [timeoutKey] });
      }
    }
  });

/** The keys `serverAttributesSchema` knows. */
export const KNOWN_SERVER_ATTRIBUTES: readonly string[] = [
  ...Object.values(SERVER_KEYS),
  ...SERVER_OPTIONS.map((o) => o.key),
  ...Object.values(QR_DRIVER_KEYS),
];

export interface ServerAttributeIssue {
  /** Below `attributes`: the key. */
  path: (string | number)[];
  message: string;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Problems of the attributes a PUT /api/server would store, limited to the keys it changes (a
 * timeout also counts as changed when its rule did): a value some other client stored long ago
 * does not block saving an unrelated setting.
 */
export function serverAttributeIssues(next: Record<string, unknown>, previous: Record<string, unknown>): ServerAttributeIssue[] {
  const result = serverAttributesSchema.safeParse(next);
  if (result.success) return [];
  const changed = (key: string) => !sameJson(next[key], previous[key]);
  return result.error.issues
    .filter((issue) => {
      const key = String(issue.path[0] ?? '');
      const rule = TIMEOUT_OF[key];
      return changed(key) || (rule !== undefined && changed(rule));
    })
    .map((issue) => ({ path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))), message: issue.message }));
}

/** True when a PUT changes the server device limit (in meaning: "0" and unset are both "none"). */
export function changesServerDeviceLimit(next: Record<string, unknown>, previous: Record<string, unknown>): boolean {
  return readServerDeviceLimit(next[SERVER_KEYS.deviceLimit]) !== readServerDeviceLimit(previous[SERVER_KEYS.deviceLimit]);
}

// ---------------------------------------------------------------------------------------------
// The settings form.

/** One row of the generic attributes tab (values are edited as text). */
export interface AttributeRow {
  key: string;
  value: string;
}

/** What the dialog edits. Numbers come from number inputs: a number, or '' / text while typed. */
export interface ServerSettingsForm {
  id: number;
  /** '' = not set (each person's browser decides). */
  language: '' | Language;
  /** '' = the default layer. */
  map: string;
  googleApiKey: string;
  latitude: number | string;
  longitude: number | string;
  zoom: number | string;
  /** '' = the default format. */
  coordinateFormat: string;
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  /** Shown as "send commands": the inverse of `limitCommands`. */
  sendCommands: boolean;
  deviceLimitUnlimited: boolean;
  deviceLimit: number | string;
  options: Record<ServerOptionId, boolean>;
  unlockOnCheckIn: boolean;
  logoutOnIgnitionOff: boolean;
  logoutAfterMinutes: number | string;
  lockWithoutDriver: boolean;
  lockAfterMinutes: number | string;
  attributes: AttributeRow[];
}

/** The form once checked. */
export interface ServerSettings {
  language: Language | null;
  map: string | null;
  googleApiKey: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  coordinateFormat: string | null;
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  /** -1 = unlimited. */
  deviceLimit: number;
  options: Record<ServerOptionId, boolean>;
  qrDriver: {
    unlockOnCheckIn: boolean;
    logoutOnIgnitionOff: boolean;
    logoutAfterMinutes: number | null;
    lockWithoutDriver: boolean;
    lockAfterMinutes: number | null;
  };
  /** The generic attributes, key → text. */
  attributes: Record<string, string>;
}

/** The part of a Server the form reads and writes. */
export interface ServerSettingsSource {
  id: number;
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  map: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  coordinateFormat: string | null;
  attributes: Record<string, unknown>;
}

/** Keys of the generic tab: not the product's own (`tarkan.` anywhere, as the existing product hides them) nor the Google key. */
export const isGenericAttribute = (key: string): boolean => !key.includes('tarkan.') && key !== SERVER_KEYS.googleApiKey;

/** An attribute's value as the generic tab shows it. */
export function attributeText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export type AttributeRowProblem = 'empty' | 'duplicate' | 'reserved';

/** Why a generic row cannot be saved, or null: a name is needed, once, and not one another tab sets. */
export function attributeRowProblem(rows: readonly AttributeRow[], index: number): AttributeRowProblem | null {
  const key = rows[index]?.key.trim() ?? '';
  if (key === '') return 'empty';
  if (!isGenericAttribute(key)) return 'reserved';
  if (rows.some((r, i) => i !== index && r.key.trim() === key)) return 'duplicate';
  return null;
}

type Fail = (message: string, path: string) => never;

function readNumber(value: number | string, name: RangeName, whole: boolean, fail: Fail, path: string): number {
  const n = typeof value === 'string' ? (value.trim() === '' ? NaN : Number(value)) : value;
  if (!inRange(name, n) || (whole && !Number.isInteger(n))) fail(`must be ${whole ? 'a whole number' : 'a number'} ${rangeText(name)}`, path);
  return n;
}

function readWhole(value: number | string, min: number, max: number, message: string, fail: Fail, path: string): number {
  const n = typeof value === 'string' ? (value.trim() === '' ? NaN : Number(value)) : value;
  if (!Number.isInteger(n) || n < min || n > max) fail(message, path);
  return n;
}

const numberOrText = z.union([z.number(), z.string()]);

/** The settings form's schema: the values above in, `ServerSettings` out. */
export const serverSettingsFormSchema = z
  .object({
    id: z.number(),
    language: z.union([z.literal(''), z.enum(LANGUAGES)]),
    map: z.string(),
    googleApiKey: z.string(),
    latitude: numberOrText,
    longitude: numberOrText,
    zoom: numberOrText,
    coordinateFormat: z.string(),
    registration: z.boolean(),
    readonly: z.boolean(),
    deviceReadonly: z.boolean(),
    sendCommands: z.boolean(),
    deviceLimitUnlimited: z.boolean(),
    deviceLimit: numberOrText,
    options: z.object(Object.fromEntries(SERVER_OPTIONS.map((o) => [o.id, z.boolean()])) as Record<ServerOptionId, z.ZodBoolean>),
    unlockOnCheckIn: z.boolean(),
    logoutOnIgnitionOff: z.boolean(),
    logoutAfterMinutes: numberOrText,
    lockWithoutDriver: z.boolean(),
    lockAfterMinutes: numberOrText,
    attributes: z.array(z.object({ key: z.string(), value: z.string() })),
  })
  .transform((form, ctx): ServerSettings => {
    // Every problem is reported (one per field), not only the first.
    let failed = false;
    const fail: Fail = (message, path) => {
      ctx.addIssue({ code: 'custom', message, path: path.split('.') });
      failed = true;
      return NaN as never;
    };
    const googleApiKey = form.googleApiKey.trim();
    if (googleApiKey.length > TEXT_MAX) fail(`at most ${TEXT_MAX} characters`, 'googleApiKey');
    const latitude = readNumber(form.latitude, 'latitude', false, fail, 'latitude');
    const longitude = readNumber(form.longitude, 'longitude', false, fail, 'longitude');
    const zoom = readNumber(form.zoom, 'zoom', true, fail, 'zoom');
    const deviceLimit = form.deviceLimitUnlimited
      ? -1
      : readWhole(form.deviceLimit, 1, 1_000_000_000, 'must be a whole number from 1 to 1000000000', fail, 'deviceLimit');
    const timeout = (on: boolean, value: number | string, path: 'logoutAfterMinutes' | 'lockAfterMinutes'): number | null => {
      const blank = typeof value === 'string' && value.trim() === '';
      // A rule switched off keeps a valid timeout for later and drops anything else (its input is disabled).
      if (!on) {
        const n = blank ? NaN : Number(value);
        return Number.isInteger(n) && n >= QR_MINUTES.min && n <= QR_MINUTES.max ? n : null;
      }
      if (blank) return fail(TIMEOUT_REQUIRED[QR_DRIVER_KEYS[path]]!, path);
      return readWhole(value, QR_MINUTES.min, QR_MINUTES.max, MINUTES_TEXT, fail, path);
    };
    const logoutAfterMinutes = timeout(form.logoutOnIgnitionOff, form.logoutAfterMinutes, 'logoutAfterMinutes');
    const lockAfterMinutes = timeout(form.lockWithoutDriver, form.lockAfterMinutes, 'lockAfterMinutes');
    const attributes: Record<string, string> = {};
    form.attributes.forEach((row, i) => {
      const problem = attributeRowProblem(form.attributes, i);
      if (problem) fail(problem === 'empty' ? 'Attribute name is required - fill in the name' : `Invalid attribute - ${problem} name`, `attributes.${i}`);
      else attributes[row.key.trim()] = row.value;
    });
    if (failed) return z.NEVER;
    return {
      language: form.language === '' ? null : form.language,
      map: form.map.trim() === '' ? null : form.map,
      googleApiKey: googleApiKey === '' ? null : googleApiKey,
      latitude,
      longitude,
      zoom,
      coordinateFormat: form.coordinateFormat.trim() === '' ? null : form.coordinateFormat,
      registration: form.registration,
      readonly: form.readonly,
      deviceReadonly: form.deviceReadonly,
      limitCommands: !form.sendCommands,
      deviceLimit,
      options: form.options,
      qrDriver: {
        unlockOnCheckIn: form.unlockOnCheckIn,
        logoutOnIgnitionOff: form.logoutOnIgnitionOff,
        logoutAfterMinutes,
        lockWithoutDriver: form.lockWithoutDriver,
        lockAfterMinutes,
      },
      attributes,
    };
  });

const minutesOf = (value: unknown): number | '' => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : '';
};

/** The form's starting values from the server as stored. */
export function serverSettingsForm(server: ServerSettingsSource): ServerSettingsForm {
  const attrs = server.attributes ?? {};
  const limit = readServerDeviceLimit(attrs[SERVER_KEYS.deviceLimit]);
  const google = attrs[SERVER_KEYS.googleApiKey];
  return {
    id: server.id,
    language: normalizeLanguage(attrs[SERVER_KEYS.language]) ?? '',
    map: server.map ?? '',
    googleApiKey: typeof google === 'string' ? google : '',
    latitude: server.latitude,
    longitude: server.longitude,
    zoom: server.zoom,
    coordinateFormat: server.coordinateFormat ?? '',
    registration: server.registration,
    readonly: server.readonly,
    deviceReadonly: server.deviceReadonly,
    sendCommands: !server.limitCommands,
    deviceLimitUnlimited: limit === -1,
    deviceLimit: limit === -1 ? '' : limit,
    options: Object.fromEntries(SERVER_OPTIONS.map((o) => [o.id, settingOn(attrs[o.key], o.defaultOn)])) as Record<ServerOptionId, boolean>,
    unlockOnCheckIn: settingOn(attrs[QR_DRIVER_KEYS.unlockOnCheckIn]),
    logoutOnIgnitionOff: settingOn(attrs[QR_DRIVER_KEYS.logoutOnIgnitionOff]),
    logoutAfterMinutes: minutesOf(attrs[QR_DRIVER_KEYS.logoutAfterMinutes]),
    lockWithoutDriver: settingOn(attrs[QR_DRIVER_KEYS.lockWithoutDriver]),
    lockAfterMinutes: minutesOf(attrs[QR_DRIVER_KEYS.lockAfterMinutes]),
    attributes: Object.entries(attrs)
      .filter(([key]) => isGenericAttribute(key))
      .map(([key, value]) => ({ key, value: attributeText(value) })),
  };
}

/**
 * The server with the checked settings applied: the PUT /api/server body. Attributes the form
 * does not show (other `tarkan.*` keys) are kept; an attribute whose meaning did not change keeps
 * its stored value as it was (a text "true", a limit of "0", a number in a generic row).
 */
export function applyServerSettings<S extends ServerSettingsSource>(server: S, settings: ServerSettings): S {
  const before = server.attributes ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) if (!isGenericAttribute(key)) out[key] = value;
  for (const [key, text] of Object.entries(settings.attributes)) {
    out[key] = Object.hasOwn(before, key) && attributeText(before[key]) === text ? before[key] : text;
  }
  /** Writes `value` unless the stored one means the same (`undefined` removes the key). */
  const put = (key: string, value: unknown, same: boolean) => {
    if (same) return;
    if (value === undefined) delete out[key];
    else out[key] = value;
  };
  put(SERVER_KEYS.language, settings.language ?? undefined, (normalizeLanguage(before[SERVER_KEYS.language]) ?? null) === settings.language);
  put(SERVER_KEYS.googleApiKey, settings.googleApiKey ?? undefined, (typeof before[SERVER_KEYS.googleApiKey] === 'string' && before[SERVER_KEYS.googleApiKey] !== '' ? before[SERVER_KEYS.googleApiKey] : null) === settings.googleApiKey);
  put(SERVER_KEYS.deviceLimit, settings.deviceLimit, readServerDeviceLimit(before[SERVER_KEYS.deviceLimit]) === settings.deviceLimit);
  for (const option of SERVER_OPTIONS) {
    const on = settings.options[option.id];
    put(option.key, on, settingOn(before[option.key], option.defaultOn) === on);
  }
  const qr = settings.qrDriver;
  for (const flag of ['unlockOnCheckIn', 'logoutOnIgnitionOff', 'lockWithoutDriver'] as const) {
    put(QR_DRIVER_KEYS[flag], qr[flag], before[QR_DRIVER_KEYS[flag]] === qr[flag] || (before[QR_DRIVER_KEYS[flag]] === undefined && !qr[flag]));
  }
  for (const timeout of ['logoutAfterMinutes', 'lockAfterMinutes'] as const) {
    put(QR_DRIVER_KEYS[timeout], qr[timeout] ?? undefined, before[QR_DRIVER_KEYS[timeout]] === (qr[timeout] ?? undefined));
  }
  return {
    ...server,
    map: settings.map,
    latitude: settings.latitude,
    longitude: settings.longitude,
    zoom: settings.zoom,
    coordinateFormat: settings.coordinateFormat,
    registration: settings.registration,
    readonly: settings.readonly,
    deviceReadonly: settings.deviceReadonly,
    limitCommands: settings.limitCommands,
    attributes: out,
  };
}
