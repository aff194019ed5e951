// Body of POST /api/users and PUT /api/users/{id} (Traccar's User). Only fields present are
// returned, so a PUT keeps what it leaves out; null for a boolean, a number or the attributes
// means "unchanged", as Traccar clients send nulls for fields they do not edit. `totpKey` is
// never shown by the API (it answers null), so null keeps it and "" removes it.
import { z } from '../zod.ts';
import { attributesObject, exactText, instant, NAME_MAX, numberIn, strictBool, TEXT_MAX } from './fields.ts';

/** Spec §5 form rules (checked by the server on the values a user ends up with). */
export const MIN_NAME = 3;
export const MIN_EMAIL = 4;
export const MIN_PASSWORD = 4;
/** Hashing cost grows with the password; no person types more. */
export const MAX_PASSWORD = 1024;

const trimmed = (max: number) => exactText(max).transform((s) => s.trim());
/** Text where null and "" clear the value. */
const clearable = (max: number) => exactText(max).nullable().transform((s) => (s === null || s === '' ? null : s));
const unchangedIfNull = <T extends z.ZodType>(schema: T) => schema.nullable().transform((v) => (v === null ? undefined : v));

export const userSchema = z.object(
  {
    name: trimmed(NAME_MAX).optional(),
    email: trimmed(NAME_MAX).optional(),
    login: exactText(NAME_MAX)
      .nullable()
      .transform((s) => (s === null || s.trim() === '' ? null : s.trim()))
      .optional(),
    phone: clearable(TEXT_MAX).optional(),
    map: clearable(TEXT_MAX).optional(),
    coordinateFormat: clearable(TEXT_MAX).optional(),
    poiLayer: clearable(TEXT_MAX).optional(),
    readonly: unchangedIfNull(strictBool).optional(),
    administrator: unchangedIfNull(strictBool).optional(),
    twelveHourFormat: unchangedIfNull(strictBool).optional(),
    disabled: unchangedIfNull(strictBool).optional(),
    deviceReadonly: unchangedIfNull(strictBool).optional(),
    limitCommands: unchangedIfNull(strictBool).optional(),
    disableReports: unchangedIfNull(strictBool).optional(),
    fixedEmail: unchangedIfNull(strictBool).optional(),
    temporary: unchangedIfNull(strictBool).optional(),
    latitude: unchangedIfNull(numberIn('latitude')).optional(),
    longitude: unchangedIfNull(numberIn('longitude')).optional(),
    zoom: unchangedIfNull(numberIn('zoom', { integer: true })).optional(),
    deviceLimit: unchangedIfNull(numberIn('limit', { integer: true })).optional(),
    userLimit: unchangedIfNull(numberIn('limit', { integer: true })).optional(),
    expirationTime: instant.optional(),
    totpKey: z
      .union([z.string(), z.null()], { error: 'must be a Base32 secret' })
      .transform((v, ctx) => {
        if (v === null) return undefined;
        const key = v.trim().toUpperCase();
        if (key === '') return null;
        if (!/^[A-Z2-7]{16,128}=*$/.test(key) || key.length > 256) {
          ctx.addIssue({ code: 'custom', message: 'must be a Base32 secret' });
          return z.NEVER;
        }
        return key;
      })
      .optional(),
    attributes: unchangedIfNull(attributesObject()).optional(),
    /** A new password; null and "" leave it unchanged. */
    password: exactText(MAX_PASSWORD)
      .nullable()
      .transform((s) => (s === null || s === '' ? undefined : s))
      .optional(),
  },
  { error: 'Invalid user - the body must be a JSON object' },
);

export const USER_WRITABLE_FIELDS = Object.keys(userSchema.shape);

export type UserInput = z.output<typeof userSchema>;
