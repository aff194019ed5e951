import { describe, expect, it } from 'vitest';
import type { Device } from '@rastro/domain/entities';
import type { ServerInfo } from '../../app/session-store.ts';
import { deviceOf, formOf, ICON_TYPES, odometerMetres, validate } from './device-form.ts';
import { addDeviceState } from './limits.ts';

describe('device form', () => {
  it('has the 24 icon types', () => expect(ICON_TYPES).toHaveLength(24));
  it('requires the name and the unique identifier', () => {
    const v = formOf(null);
    expect(validate(v)).toEqual({ name: 'deviceEditor.errors.nameEmpty', uniqueId: 'deviceEditor.errors.uniqueIdEmpty' });
  });
  it('keeps Traccar fields as fields and the rest as attributes, unknown attributes kept', () => {
    const device = { id: 5, name: 'A', uniqueId: '1', phone: null, model: null, category: null, groupId: 0, attributes: { keep: 1, placa: 'OLD1A23' } } as unknown as Device;
    const v = formOf(device, 12_345_000);
    expect(v.fields.plate).toBe('OLD1A23');
    expect(v.odometerKm).toBe('12345');
    v.fields.plate = 'ABC1D23';
    v.fields.uniqueId = ' 3567 ';
    v.fields.model = 'GT06';
    v.state = 'in_stock';
    v.color = '0|1.00|1.00';
    const body = deviceOf(device, v, false);
    expect(body).toMatchObject({ id: 5, uniqueId: '3567', model: 'GT06', category: 'default' });
    expect(body.attributes).toEqual({ keep: 1, plate: 'ABC1D23', placa: 'ABC1D23', 'device.state': 'in_stock', 'tarkan.color': '0|1.00|1.00' });
    expect(odometerMetres('12,5')).toBe(12_500);
  });
  it('the add action follows the limits', () => {
    const user = { id: 1, administrator: false, deviceLimit: 2, readonly: false, deviceReadonly: false, attributes: {} } as never;
    const info = (allowed: number | null, attrs = {}): ServerInfo => ({ plus: false, allowedDevices: allowed, server: { attributes: attrs } as never });
    expect(addDeviceState(user, info(null), 1)).toMatchObject({ visible: true, allowed: true });
    expect(addDeviceState(user, info(null), 2)).toMatchObject({ allowed: false, reason: 'deviceEditor.limits.userLimit' });
    expect(addDeviceState(user, info(0), 0)).toMatchObject({ allowed: false, reason: 'deviceEditor.limits.serverLimit' });
    expect(addDeviceState(user, info(null, { 'tarkan.deviceLimit': 1 }), 1)).toMatchObject({ allowed: false, reason: 'deviceEditor.limits.serverAttributeLimit' });
  });
});
