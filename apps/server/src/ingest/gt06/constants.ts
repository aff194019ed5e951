// GT06 (Concox and its many clones): the protocol numbers we read or answer, and the codes
// their status bytes carry. Numbers and meanings follow the Concox protocol documents as
// traccar-reference A.10 describes them.

export const GT06 = 'gt06';

/** Message types (the "protocol number" byte after the length). */
export const MSG = {
  LOGIN: 0x01,
  GPS: 0x10,
  /** GPS + LBS with a 2-byte MNC and a 4-byte cell id. */
  GPS_LBS_LONG_CELL: 0x11,
  GPS_LBS: 0x12,
  STATUS: 0x13,
  STRING: 0x15,
  GPS_LBS_STATUS: 0x16,
  WIFI: 0x17,
  STRING_INFO: 0x21,
  GPS_LBS_2: 0x22,
  HEARTBEAT: 0x23,
  GPS_LBS_STATUS_2: 0x26,
  ADDRESS_REQUEST: 0x2a,
  X1_GPS: 0x34,
  X1_PHOTO_INFO: 0x35,
  WIFI_2: 0x69,
  COMMAND_0: 0x80,
  COMMAND_1: 0x81,
  COMMAND_2: 0x82,
  TIME_REQUEST: 0x8a,
  INFO: 0x94,
  /** 4G units (GK310, JM-VL03): GPS + LBS with a 4-byte LAC and an 8-byte cell id. */
  GPS_LBS_4G: 0xa0,
  WIFI_4: 0xf3,
} as const;

/**
 * Basic (`78 78`) types Traccar never answers with the standard 10-byte ack: our own command
 * types echoed back, the information packet, and the types whose answer has another shape
 * (photo requests, address and Wi-Fi replies) that we do not produce. Every other basic frame
 * from an identified device is acknowledged, location packets included, exactly as Traccar
 * does: units that need no ack ignore it, units that wait for one would otherwise resend.
 */
export const NOT_ACKED = new Set<number>([
  MSG.COMMAND_0, MSG.COMMAND_1, MSG.COMMAND_2, MSG.INFO, MSG.X1_GPS, MSG.X1_PHOTO_INFO, MSG.ADDRESS_REQUEST, MSG.WIFI_4,
]);

/** Alarm codes of the alarm byte (status packets 0x13, 0x16, 0x26) → Traccar's alarm names. */
export const ALARM_CODES: Readonly<Record<number, string>> = {
  0x01: 'sos',
  0x02: 'powerCut',
  0x03: 'vibration',
  0x04: 'geofenceEnter',
  0x05: 'geofenceExit',
  0x06: 'overspeed',
  0x09: 'vibration', // displacement
  0x0c: 'tampering',
  0x0e: 'lowBattery', // low external power
  0x0f: 'lowBattery',
  0x11: 'powerOff',
  0x13: 'tampering', // device removed / case opened
  0x14: 'door',
  0x18: 'removing',
  0x19: 'lowBattery',
  0x1a: 'braking',
  0x1b: 'cornering',
  0x23: 'fallDown',
  0x25: 'tampering',
  0x28: 'braking',
  0x29: 'acceleration',
  0x2a: 'cornering',
  0x2b: 'cornering',
  0x2c: 'accident',
  0x2e: 'cornering',
  0x30: 'jamming',
};

/** Bits 3–5 of the terminal-information byte: the alarm state it reports. */
export const TERMINAL_ALARMS: Readonly<Record<number, string>> = {
  1: 'vibration',
  2: 'powerCut',
  3: 'lowBattery',
  4: 'sos',
  6: 'geofence',
  7: 'removing',
};
