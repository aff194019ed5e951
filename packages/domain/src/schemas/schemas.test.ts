import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { deviceSchema, deviceUpdateSchema } from './device.ts';
import { groupUpdateSchema } from './group.ts';
import { geofenceSchema } from './geofence.ts';
import { commandSchema, commandSendSchema } from './command.ts';
import { permissionBulkSchema, permissionLinkSchema } from './permission.ts';
import { SERVER_WRITABLE_FIELDS, serverUpdateSchema } from './server.ts';
import { userSchema } from './user.ts';
import { accumulatorsSchema } from './accumulators.ts';
import { errorText, hasWritableField, nothingToUpdateText } from './messages.ts';

function refusal(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a refusal of ${JSON.stringify(value)}`);
  return errorText(result.error);
}

describe('device body', () => {
  it('reads Traccar`s Device, ignoring server-managed and unknown fields', () => {
    const device = deviceSchema.parse({
      id: 9, name: ' Truck ', uniqueId: 123, status: 'online', positionId: 4, disabled: 'true', groupId: '3', phone: '',
      expirationTime: '2030-01-01T00:00:00Z', attributes: { speedLimit: 50 }, __unknown: true,
    });
    expect(device).toEqual({
      name: 'Truck', uniqueId: '123', disabled: true, groupId: 3, phone: null, expirationTime: Date.UTC(2030, 0, 1), attributes: { speedLimit: 50 },
    });
  });

  it('names the first bad field', () => {
    expect(refusal(deviceSchema, { uniqueId: 'x' })).toBe('Name is required - fill in the name field');
    expect(refusal(deviceSchema, [])).toBe('Invalid body - a JSON object is expected');
    expect(refusal(deviceSchema, { name: 'a', uniqueId: 'b', expirationTime: 8640000000000001 })).toMatch(/^Invalid expirationTime - /);
    expect(refusal(deviceSchema, { name: 'a', uniqueId: 'b', attributes: { n: '\ud800' } })).toMatch(/^Invalid attributes\.n - /);
  });

  it('an update keeps left-out fields out and clears what is null', () => {
    expect(deviceUpdateSchema.parse({ phone: null, attributes: null })).toEqual({ phone: null, attributes: {} });
    expect(hasWritableField(deviceUpdateSchema.parse({ id: 3, status: 'online' }))).toBe(false);
    expect(hasWritableField(deviceUpdateSchema.parse({ name: 'same as stored' }))).toBe(true);
    expect(refusal(deviceUpdateSchema, { name: null })).toBe('Name is required - fill in the name field');
  });
});

describe('other bodies', () => {
  it('groups and geofences', () => {
    expect(groupUpdateSchema.parse({ groupId: 0 })).toEqual({ groupId: null });
    expect(refusal(geofenceSchema, { name: 'g', area: ' ' })).toBe('Area is required - fill in the area field');
    expect(refusal(geofenceSchema, { name: 'g', area: 'POLYGON((1 2, 3 4))' })).toMatch(/at least 3 points/);
    expect(geofenceSchema.parse({ name: 'g', area: ' CIRCLE (1 2, 30) ' }).area).toBe('CIRCLE (1 2, 30)');
  });

  it('commands: parameters as an object, an empty array meaning none; send ids of -1 mean none', () => {
    expect(commandSchema.parse({ type: ' custom ', attributes: [] })).toEqual({ type: 'custom', attributes: {} });
    expect(refusal(commandSchema, { type: '' })).toBe('Type is required - fill in the type field');
    expect(refusal(commandSchema, { type: 'x', attributes: [1] })).toBe('Invalid attributes - a JSON object is expected');
    expect(commandSendSchema.parse({ id: -1, deviceId: '5' })).toEqual({ id: null, deviceId: 5 });
  });

  it('permissions: two keys, first the owner; bulk of one key pair', () => {
    expect(permissionLinkSchema.parse({ userId: '3', deviceId: 8 })).toEqual({ ownerKey: 'userId', ownerId: 3, propertyKey: 'deviceId', propertyId: 8 });
    expect(refusal(permissionLinkSchema, { userId: 1 })).toBe('Invalid permission - exactly two keys are expected, got 1');
    expect(refusal(permissionLinkSchema, { userId: 0, deviceId: 2 })).toBe('Invalid permission - userId must be a positive id');
    expect(refusal(permissionLinkSchema, { 'user\nId': 1, deviceId: 2 })).toMatch(/^Invalid permission - keys are property names/);
    expect(refusal(permissionBulkSchema, [])).toMatch(/non-empty/);
    expect(refusal(permissionBulkSchema, [{ userId: 1, deviceId: 2 }, { userId: 1, groupId: 2 }])).toMatch(/same two keys/);
  });

  it('server: an empty body has no writable field', () => {
    expect(hasWritableField(serverUpdateSchema.parse({}))).toBe(false);
    expect(hasWritableField(serverUpdateSchema.parse({ version: '6.0', emailEnabled: true }))).toBe(false);
    expect(nothingToUpdateText(SERVER_WRITABLE_FIELDS)).toMatch(/^Nothing to update - .*registration/);
    expect(refusal(serverUpdateSchema, { latitude: 91 })).toBe('Invalid latitude - must be a number from -90 to 90 degrees');
    expect(refusal(serverUpdateSchema, { registration: 'yes' })).toBe('Invalid registration - must be true or false');
  });

  it('users: null means unchanged for flags, numbers and attributes; totpKey "" removes it', () => {
    expect(userSchema.parse({ readonly: null, zoom: null, attributes: null, totpKey: null, password: '' })).toEqual({
      readonly: undefined, zoom: undefined, attributes: undefined, totpKey: undefined, password: undefined,
    });
    expect(userSchema.parse({ totpKey: '' })).toEqual({ totpKey: null });
    expect(refusal(userSchema, { name: 5 })).toBe('Invalid name - must be text');
    expect(refusal(userSchema, { deviceLimit: -2 })).toBe('Invalid deviceLimit - must be a whole number from -1 to 1000000000');
    expect(refusal(userSchema, { expirationTime: '2025-02-30T00:00:00Z' })).toBe('Invalid expirationTime - not a real date or time of day');
  });

  it('accumulators: at least one of them, within range; hours rounded', () => {
    expect(accumulatorsSchema.parse({ totalDistance: '1500.5', hours: 10.4 })).toEqual({ totalDistance: 1500.5, hours: 10 });
    expect(refusal(accumulatorsSchema, {})).toMatch(/^Invalid accumulators - give totalDistance/);
    expect(refusal(accumulatorsSchema, { totalDistance: 1e308 })).toMatch(/^Invalid totalDistance - must be a number from 0/);
    expect(refusal(accumulatorsSchema, { hours: -1 })).toMatch(/^Invalid hours - /);
  });
});
