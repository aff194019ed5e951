// Optional tails of Suntech reports: the serial-port data of UEX reports (`LEN;DATA;CHECKSUM`,
// where an RFID/iButton reader such as GTSL puts the driver id), and the hour-meter block
// ST300-family firmwares append when `HBM_STT` is on (`H_METER;BCK_VOLT;MSG_TYPE`, then
// `DRIVER_ID;REGISTERED` on some models). The tails carry no marker, so each is read only when
// every field has its documented shape.
import { integer } from './suntech-fields.ts';

/**
 * Reads `LEN;DATA…;CHECKSUM` at `index` into `attributes` (the data may hold `;` itself: the
 * fields that fit in LEN characters are the data). Returns the index after the checksum.
 */
export function readSerialData(values: readonly string[], index: number, attributes: Record<string, unknown>): number {
  const length = integer(values[index]);
  if (length === null) return values.length;
  let data = values[index + 1] ?? '';
  let next = index + 2;
  while (next < values.length && data.length + 1 + values[next]!.length <= length) {
    data += `;${values[next]}`;
    next += 1;
  }
  if (data.startsWith('GTSL')) {
    // GTSL|<type>|<status>|<…>|<driver id>|…
    const driver = data.split('|')[4];
    if (driver) attributes.driverUniqueId = driver;
  } else if (data !== '') {
    attributes.serial = data;
  }
  return next + 1;
}

const NO_DRIVER = /^0*$/;

/** Reads the hour-meter block at `index` when it is there. */
export function readHourMeter(values: readonly string[], index: number, attributes: Record<string, unknown>): void {
  const [minutes, volts, type, driver, registered] = values.slice(index, index + 5);
  if (!(/^\d{1,10}$/.test(minutes ?? '') && /^\d{1,2}\.\d{1,3}$/.test(volts ?? '') && /^[01]$/.test(type ?? ''))) return;
  attributes.hours = Number(minutes) * 60_000;
  attributes.battery = Number(volts);
  if (type === '0') attributes.archive = true;
  if (driver && /^[0-9A-Fa-f]{1,20}$/.test(driver) && !NO_DRIVER.test(driver) && /^[01]$/.test(registered ?? '') && attributes.driverUniqueId === undefined) {
    attributes.driverUniqueId = driver;
  }
}
