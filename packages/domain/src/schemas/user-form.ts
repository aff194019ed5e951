// The user editor's form (spec §3 User, §5 user form; tarkan-reference §3.13.3): every field of
// its six tabs as the form holds it (texts as typed, switches as booleans), the zod schema that
// checks it before anything is sent, and the two mappings between a Traccar User and the form.
// Fields Traccar has are its own; the rest are user attributes, under the keys existing
// installations use where the reference names them (billing `tarkan.billing*`, the address keys
// Tarkan's editors write, Traccar's `speedUnit`/`distanceUnit`/`volumeUnit`/`timezone`/
// `telegramChatId`) and new `tarkan.*` keys where it does not. Attributes the form does not know
// are kept as they are. The server checks the API body again (schemas/user.ts and its rules).
import { z } from '../zod.ts';
import type { Attributes } from './attributes.ts';
import type { User } from '../entities.ts';
import { readIsoInstant } from './instant.ts';
import { NAME_MAX, TEXT_MAX } from './fields.ts';
import { inRange, rangeText, type RangeName } from './ranges.ts';
import { MAX_PASSWORD, MIN_EMAIL, MIN_NAME, MIN_PASSWORD } from './user.ts';
import { normalizeLanguage } from '../language.ts';
import { decodeAdvancedPerms, encodeAdvancedPerms } from '../permissions.ts';
import { ADVANCED_PERMS_KEY, isHostName, RESELLER_KEYS } from '../resellers.ts';
import { USER_BILLING_KEYS } from '../billing-keys.ts';

/** Map layers the product offers (tarkan-reference §3.13.3). */
export const MAP_TYPES = ['openstreet', 'googleST', 'googleTR', 'googleSN'] as const;
/** Traccar's coordinate formats: decimal degrees, degrees and decimal minutes, degrees minutes seconds. */
export const COORDINATE_FORMATS = ['dd', 'ddm', 'dms'] as const;
/** Traccar's unit keys (units.ts reads speed and distance). */
export const SPEED_UNITS = ['kmh', 'mph', 'kn'] as const;
export const DISTANCE_UNITS = ['km', 'mi'] as const;
export const VOLUME_UNITS = ['ltr', 'usGal', 'impGal'] as const;
/** How a fine or a discount is counted (the payment provider's FIXED / PERCENTAGE). */
export const BILLING_MODES = ['PERCENTAGE', 'FIXED'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

/** Preferences kept as attributes. */
export const USER_PREFERENCE_KEYS = {
  language: 'tarkan.lang',
  speedUnit: 'speedUnit',
  distanceUnit: 'distanceUnit',
  volumeUnit: 'volumeUnit',
  timezone: 'timezone',
  /** Group nearby vehicles on the map (the map preference `clustered`, default on). */
  clustered: 'tarkan.mapPref.clustered',
} as const;

/** The address, under the keys Tarkan's editors write for an owner's address (tarkan-reference §3.13.1). */
export const USER_ADDRESS_KEYS = {
  zip: 'tarkan.cep',
  street: 'tarkan.rua',
  number: 'tarkan.numero',
  complement: 'tarkan.complemento',
  district: 'tarkan.bairro',
  city: 'tarkan.cidade',
  state: 'tarkan.estado',
} as const;

/** Contacts; `telegramChatId` is the key Traccar's telegram notificator reads. */
export const USER_CONTACT_KEYS = {
  personalPhone: 'tarkan.personalPhone',
  commercialPhone: 'tarkan.commercialPhone',
  whatsapp: 'tarkan.whatsapp',
  contactEmail: 'tarkan.contactEmail',
  telegramChatId: 'telegramChatId',
} as const;

/** Billing settings of one customer: billing-keys.ts. */
export { USER_BILLING_KEYS };

export type AddressField = keyof typeof USER_ADDRESS_KEYS;
export type ContactField = keyof typeof USER_CONTACT_KEYS;

export interface UserFormValues {
  /** -1 for a new user. */
  id: number;
  // account
  name: string;
  email: string;
  /** Required for a new user; on an existing one "" keeps the password. */
  password: string;
  phone: string;
  // preferences ("" = not set: the server's choice applies)
  language: string;
  map: string;
  latitude: string;
  longitude: string;
  zoom: string;
  twelveHourFormat: boolean;
  coordinateFormat: string;
  speedUnit: string;
  distanceUnit: string;
  volumeUnit: string;
  timezone: string;
  clustered: boolean;
  // address
  zip: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
  // permissions
  disabled: boolean;
  administrator: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  /** Whole number text, "-1" = unlimited. */
  deviceLimit: string;
  userLimit: string;
  /** ISO instant, "" = never. */
  expirationTime: string;
  reseller: boolean;
  subReseller: boolean;
  resellerDomain: string;
  /** "" = none (only userLimit applies), "-1" = unlimited, else a whole number. */
  resellerLimit: string;
  /** The 128 advanced permission flags; null when the user has none stored. */
  advancedPerms: boolean[] | null;
  // billing
  billingEnabled: boolean;
  billingTaxId: string;
  billingTrustUnlock: boolean;
  billingTrustUnlockDays: string;
  billingSuspension: boolean;
  billingSuspensionDays: string;
  billingDescription: string;
  billingDueDay: string;
  /** Money as typed ("49,90"). */
  billingPrice: string;
  billingFine: string;
  billingFineMode: BillingMode;
  billingInterest: string;
  billingDiscount: string;
  billingDiscountMode: BillingMode;
  billingDiscountDays: string;
  // communication
  personalPhone: string;
  commercialPhone: string;
  whatsapp: string;
  contactEmail: string;
  telegramChatId: string;
}

// ---- the schema ----

const textUpTo = (max: number) => z.string({ error: 'must be text' }).max(max, { error: `at most ${max} characters` });
const optionalText = textUpTo(TEXT_MAX);

/** A number typed in a field: "" (none) or a decimal within a range ("," or "." as separator). */
function decimalText(range: RangeName, options: { integer?: boolean } = {}) {
  const message = `must be ${options.integer ? 'a whole number' : 'a number'} ${rangeText(range)}`;
  return z.string().refine((text) => {
    if (text.trim() === '') return true;
    const n = readDecimal(text);
    return n !== null && inRange(range, n) && (!options.integer || Number.isInteger(n));
  }, { error: message });
}

/** A whole number from min to max typed in a field ("" allowed when `optional`). */
function wholeText(min: number, max: number, optional = true) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.string().refine((text) => {
    if (text.trim() === '') return optional;
    const n = readDecimal(text);
    return n !== null && Number.isInteger(n) && n >= min && n <= max;
  }, { error: message });
}

/** An amount of money or a percentage: up to two decimals, from 0 to `max`. */
function amountText(max: number) {
  const message = `must be a number from 0 to ${max}`;
  return z.string().refine((text) => {
    if (text.trim() === '') return true;
    if (!/^\s*\d{1,12}([.,]\d{1,2})?\s*$/.test(text)) return false;
    return readDecimal(text)! <= max;
  }, { error: message });
}

/** "12,5" and "12.5" both read 12.5; anything else is null. */
export function readDecimal(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Cents of a money text ("49,90" → 4990), or null when empty / not money. */
export function moneyToCents(text: string): number | null {
  if (!/^\s*\d{1,12}([.,]\d{1,2})?\s*$/.test(text)) return null;
  const [whole, fraction = ''] = text.trim().replace(',', '.').split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Whole cents as the form shows them ("4990" → "49,90"). */
export const centsToMoney = (cents: number): string => `${Math.trunc(cents / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const MAX_DAYS = 3650;
const MAX_MONEY = 1_000_000_000;

export const userFormSchema = z
  .object({
    id: z.number(),
    name: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1, { error: 'Name is required - type a name and surname' })
        .min(MIN_NAME, { error: `at least ${MIN_NAME} characters` }).max(NAME_MAX, { error: `at most ${NAME_MAX} characters` })),
    email: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1, { error: 'Email is required - type the e-mail or login' })
        .min(MIN_EMAIL, { error: `at least ${MIN_EMAIL} characters` }).max(NAME_MAX, { error: `at most ${NAME_MAX} characters` })),
    password: z.string().max(MAX_PASSWORD, { error: `at most ${MAX_PASSWORD} characters` }),
    phone: optionalText,
    language: z.string().refine((s) => s === '' || normalizeLanguage(s) !== null, { error: 'not a language we offer' }),
    map: optionalText,
    latitude: decimalText('latitude'),
    longitude: decimalText('longitude'),
    zoom: decimalText('zoom', { integer: true }),
    twelveHourFormat: z.boolean(),
    coordinateFormat: optionalText,
    speedUnit: optionalText,
    distanceUnit: optionalText,
    volumeUnit: optionalText,
    timezone: optionalText,
    clustered: z.boolean(),
    zip: optionalText,
    street: optionalText,
    number: optionalText,
    complement: optionalText,
    district: optionalText,
    city: optionalText,
    state: optionalText,
    disabled: z.boolean(),
    administrator: z.boolean(),
    readonly: z.boolean(),
    deviceReadonly: z.boolean(),
    limitCommands: z.boolean(),
    deviceLimit: decimalText('limit', { integer: true }).refine((s) => s.trim() !== '', { error: 'a whole number is required - -1 for unlimited' }),
    userLimit: decimalText('limit', { integer: true }).refine((s) => s.trim() !== '', { error: 'a whole number is required - -1 for unlimited' }),
    expirationTime: z.string().refine((s) => s === '' || readIsoInstant(s).ok, { error: 'must be a date' }),
    reseller: z.boolean(),
    subReseller: z.boolean(),
    resellerDomain: z.string().refine((s) => s.trim() === '' || isHostName(s.trim().toLowerCase()), {
      error: 'must be a host name like track.example.com',
    }),
    resellerLimit: decimalText('limit', { integer: true }),
    advancedPerms: z.array(z.boolean()).max(128).nullable(),
    billingEnabled: z.boolean(),
    billingTaxId: z.string().refine((s) => s.trim() === '' || [11, 14].includes(s.replace(/\D/g, '').length), {
      error: 'must have 11 (CPF) or 14 (CNPJ) digits',
    }),
    billingTrustUnlock: z.boolean(),
    billingTrustUnlockDays: wholeText(0, MAX_DAYS),
    billingSuspension: z.boolean(),
    billingSuspensionDays: wholeText(0, MAX_DAYS),
    billingDescription: optionalText,
    billingDueDay: wholeText(1, 31),
    billingPrice: amountText(MAX_MONEY),
    billingFine: amountText(MAX_MONEY),
    billingFineMode: z.enum(BILLING_MODES),
    billingInterest: amountText(100),
    billingDiscount: amountText(MAX_MONEY),
    billingDiscountMode: z.enum(BILLING_MODES),
    billingDiscountDays: wholeText(0, MAX_DAYS),
    personalPhone: optionalText,
    commercialPhone: optionalText,
    whatsapp: optionalText,
    contactEmail: optionalText,
    telegramChatId: z.string().refine((s) => s.trim() === '' || /^-?\d{1,20}$/.test(s.trim()), { error: 'must be a whole number (a chat id)' }),
  })
  .superRefine((v, ctx) => {
    const fresh = v.id <= 0;
    if (fresh && v.password === '') {
      ctx.addIssue({ code: 'custom', path: ['password'], message: `Password is required - at least ${MIN_PASSWORD} characters` });
    } else if (v.password !== '' && v.password.length < MIN_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: `at least ${MIN_PASSWORD} characters` });
    }
    // Percentages above 100 make no sense; money may be any amount.
    if (v.billingFineMode === 'PERCENTAGE' && (readDecimal(v.billingFine) ?? 0) > 100) {
      ctx.addIssue({ code: 'custom', path: ['billingFine'], message: 'must be a number from 0 to 100' });
    }
    if (v.billingDiscountMode === 'PERCENTAGE' && (readDecimal(v.billingDiscount) ?? 0) > 100) {
      ctx.addIssue({ code: 'custom', path: ['billingDiscount'], message: 'must be a number from 0 to 100' });
    }
    if (v.billingTrustUnlock && v.billingTrustUnlockDays.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['billingTrustUnlockDays'], message: 'Days are required - how many days the unlock lasts' });
    }
    if (v.billingSuspension && v.billingSuspensionDays.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['billingSuspensionDays'], message: 'Days are required - how many days overdue before suspending' });
    }
  });

// ---- User → form ----

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const on = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';
const mode = (v: unknown): BillingMode => (v === 'FIXED' ? 'FIXED' : 'PERCENTAGE');

/** What a new user starts with (tarkan-reference §3.13.3). */
export interface NewUserDefaults {
  /** The creator's expiration (a user never outlives its creator); null = never. */
  expirationTime: string | null;
  /** The server's `tarkan.lang`. */
  language: string;
  /** The advanced permission flags to start from (null = none stored). */
  advancedPerms: boolean[] | null;
}

/** The form of an existing user, or of a new one (user null) with the reference's defaults. */
export function userToForm(user: User | null, defaults: NewUserDefaults): UserFormValues {
  const a: Attributes = user?.attributes ?? {};
  const attr = (key: string) => str(a[key]);
  const cents = a[USER_BILLING_KEYS.price];
  const lang = user ? a[USER_PREFERENCE_KEYS.language] : defaults.language;
  const address = Object.fromEntries(Object.entries(USER_ADDRESS_KEYS).map(([field, key]) => [field, attr(key)])) as Record<AddressField, string>;
  const contacts = Object.fromEntries(Object.entries(USER_CONTACT_KEYS).map(([field, key]) => [field, attr(key)])) as Record<ContactField, string>;
  const nonZero = (n: number | undefined) => (n ? String(n) : '');
  return {
    id: user?.id ?? -1,
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    phone: str(user?.phone),
    language: normalizeLanguage(lang) ?? '',
    map: str(user?.map),
    latitude: nonZero(user?.latitude),
    longitude: nonZero(user?.longitude),
    zoom: nonZero(user?.zoom),
    twelveHourFormat: user?.twelveHourFormat ?? false,
    coordinateFormat: str(user?.coordinateFormat),
    speedUnit: attr(USER_PREFERENCE_KEYS.speedUnit),
    distanceUnit: attr(USER_PREFERENCE_KEYS.distanceUnit),
    volumeUnit: attr(USER_PREFERENCE_KEYS.volumeUnit),
    timezone: attr(USER_PREFERENCE_KEYS.timezone),
    clustered: a[USER_PREFERENCE_KEYS.clustered] === undefined ? true : on(a[USER_PREFERENCE_KEYS.clustered]),
    ...address,
    disabled: user?.disabled ?? false,
    administrator: user?.administrator ?? false,
    readonly: user?.readonly ?? false,
    deviceReadonly: user ? user.deviceReadonly : true,
    limitCommands: user?.limitCommands ?? false,
    deviceLimit: String(user?.deviceLimit ?? 0),
    userLimit: String(user?.userLimit ?? 0),
    expirationTime: str(user ? user.expirationTime : defaults.expirationTime),
    reseller: a[RESELLER_KEYS.reseller] === true,
    subReseller: a[RESELLER_KEYS.subReseller] === true,
    resellerDomain: attr(RESELLER_KEYS.domain),
    resellerLimit: typeof a[RESELLER_KEYS.limit] === 'number' ? String(a[RESELLER_KEYS.limit]) : '',
    advancedPerms: user ? decodeAdvancedPerms(a[ADVANCED_PERMS_KEY]) : defaults.advancedPerms,
    billingEnabled: on(a[USER_BILLING_KEYS.enabled]),
    billingTaxId: attr(USER_BILLING_KEYS.taxId),
    billingTrustUnlock: on(a[USER_BILLING_KEYS.trustUnlock]),
    billingTrustUnlockDays: attr(USER_BILLING_KEYS.trustUnlockDays),
    billingSuspension: on(a[USER_BILLING_KEYS.suspension]),
    billingSuspensionDays: attr(USER_BILLING_KEYS.suspensionDays),
    billingDescription: attr(USER_BILLING_KEYS.description),
    billingDueDay: attr(USER_BILLING_KEYS.dueDay),
    billingPrice: typeof cents === 'number' && Number.isInteger(cents) ? centsToMoney(cents) : '',
    billingFine: attr(USER_BILLING_KEYS.fine),
    billingFineMode: mode(a[USER_BILLING_KEYS.fineMode]),
    billingInterest: attr(USER_BILLING_KEYS.interest),
    billingDiscount: attr(USER_BILLING_KEYS.discount),
    billingDiscountMode: mode(a[USER_BILLING_KEYS.discountMode]),
    billingDiscountDays: attr(USER_BILLING_KEYS.discountDays),
    ...contacts,
  };
}

// ---- form → User body ----

export interface FormToUserOptions {
  /**
   * The advanced permission editor was shown (plus licence, server switch on, target not an
   * administrator): its flags are written, and readonly / deviceReadonly / limitCommands are
   * forced off as Tarkan does (the flags say what the user may do instead).
   */
  writeAdvancedPerms: boolean;
  /** The reseller block was shown: its attributes are written. */
  writeReseller: boolean;
  /** The billing tab was shown: its attributes are written. */
  writeBilling: boolean;
}

/** Sets or removes one attribute: "" and null remove it. */
function put(attributes: Attributes, key: string, value: unknown): void {
  if (value === '' || value === null || value === undefined) delete attributes[key];
  else attributes[key] = value;
}

const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : readDecimal(text));

/** The instant of an ISO text in the API's form (UTC, milliseconds), null when empty or not one. */
function isoOrNull(text: string): string | null {
  const reading = text === '' ? null : readIsoInstant(text);
  return reading?.ok ? new Date(reading.ms).toISOString() : null;
}

/**
 * The body of POST /api/users (user null) or PUT /api/users/:id: the original user with the
 * form's values over it; attributes the form does not know stay as they were.
 */
export function formToUser(values: UserFormValues, original: User | null, options: FormToUserOptions): Partial<User> & { attributes: Attributes } {
  const attributes: Attributes = { ...(original?.attributes ?? {}) };
  const language = normalizeLanguage(values.language);
  put(attributes, USER_PREFERENCE_KEYS.language, language);
  put(attributes, USER_PREFERENCE_KEYS.speedUnit, values.speedUnit);
  put(attributes, USER_PREFERENCE_KEYS.distanceUnit, values.distanceUnit);
  put(attributes, USER_PREFERENCE_KEYS.volumeUnit, values.volumeUnit);
  put(attributes, USER_PREFERENCE_KEYS.timezone, values.timezone);
  attributes[USER_PREFERENCE_KEYS.clustered] = values.clustered;
  for (const [field, key] of Object.entries(USER_ADDRESS_KEYS)) put(attributes, key, values[field as AddressField].trim());
  for (const [field, key] of Object.entries(USER_CONTACT_KEYS)) put(attributes, key, values[field as ContactField].trim());

  const body: Partial<User> & { attributes: Attributes } = {
    ...(original ?? {}),
    name: values.name.trim(),
    email: values.email.trim(),
    phone: values.phone.trim() === '' ? null : values.phone.trim(),
    map: values.map === '' ? null : values.map,
    latitude: numberOrNull(values.latitude) ?? 0,
    longitude: numberOrNull(values.longitude) ?? 0,
    zoom: numberOrNull(values.zoom) ?? 0,
    twelveHourFormat: values.twelveHourFormat,
    coordinateFormat: values.coordinateFormat === '' ? null : values.coordinateFormat,
    disabled: values.disabled,
    administrator: values.administrator,
    readonly: values.readonly,
    deviceReadonly: values.deviceReadonly,
    limitCommands: values.limitCommands,
    deviceLimit: numberOrNull(values.deviceLimit) ?? 0,
    userLimit: numberOrNull(values.userLimit) ?? 0,
    expirationTime: isoOrNull(values.expirationTime),
    attributes,
  };
  if (values.password !== '') body.password = values.password;
  else delete body.password;
  // Never echoed back: the API shows null for it, and null there means "keep".
  delete body.totpKey;

  // No flags in the form means none stored and none touched: the editor shows such a user with
  // every switch on (spec §6: without flags a non-shared user passes), so nothing is written and
  // the user keeps exactly that. Writing an empty set here would take every right away.
  if (options.writeAdvancedPerms && values.advancedPerms) {
    attributes[ADVANCED_PERMS_KEY] = encodeAdvancedPerms(values.advancedPerms);
    body.readonly = false;
    body.deviceReadonly = false;
    body.limitCommands = false;
  }
  if (options.writeReseller) {
    put(attributes, RESELLER_KEYS.reseller, values.reseller ? true : null);
    put(attributes, RESELLER_KEYS.subReseller, values.reseller && values.subReseller ? true : null);
    put(attributes, RESELLER_KEYS.domain, values.reseller ? values.resellerDomain.trim().toLowerCase() : null);
    put(attributes, RESELLER_KEYS.limit, values.reseller ? numberOrNull(values.resellerLimit) : null);
  }
  if (options.writeBilling) {
    const b = USER_BILLING_KEYS;
    put(attributes, b.enabled, values.billingEnabled ? true : null);
    put(attributes, b.taxId, values.billingTaxId.trim());
    put(attributes, b.trustUnlock, values.billingTrustUnlock ? 1 : 0);
    put(attributes, b.trustUnlockDays, numberOrNull(values.billingTrustUnlockDays));
    put(attributes, b.suspension, values.billingSuspension ? 1 : 0);
    put(attributes, b.suspensionDays, numberOrNull(values.billingSuspensionDays));
    put(attributes, b.description, values.billingDescription.trim());
    put(attributes, b.dueDay, numberOrNull(values.billingDueDay));
    put(attributes, b.price, values.billingPrice.trim() === '' ? null : moneyToCents(values.billingPrice));
    put(attributes, b.fine, numberOrNull(values.billingFine));
    put(attributes, b.fineMode, values.billingFineMode);
    put(attributes, b.interest, numberOrNull(values.billingInterest));
    put(attributes, b.discount, numberOrNull(values.billingDiscount));
    put(attributes, b.discountMode, values.billingDiscountMode);
    put(attributes, b.discountDays, numberOrNull(values.billingDiscountDays));
  }
  return body;
}
