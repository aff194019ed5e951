// The H02 vehicle status word: 32 bits sent as 8 hex digits, in negative logic (a bit at 0
// means the condition holds). Bit numbers follow the vendor table Traccar published for H02
// (issue traccar#2920): 0 theft, 1 SOS/robbery, 2 overspeed, 4 entered fence, 5 GPS antenna
// open circuit, 7 left fence, 8 door open, 9 armed, 10 "ACC off", 19 running on the backup
// battery. Bit 27 is the fuel/electric cut output: it drops to 0 in the `V4,S20,DONE` answer to
// an engine stop. Bit 10 reads "ACC off" when 0, so the ignition is on when the bit is 1.
// Bits the vendor tables disagree on (11, 17, 18) are left in `status` for computed attributes.

const ALARM_BITS: ReadonlyArray<readonly [bit: number, alarm: string]> = [
  [1, 'sos'],
  [0, 'vibration'],
  [2, 'overspeed'],
  [19, 'powerCut'],
  [5, 'gpsAntennaCut'],
  [4, 'geofenceEnter'],
  [7, 'geofenceExit'],
];

const BIT = { door: 8, armed: 9, accOff: 10, fuelCut: 27 } as const;

/** Reads the 8 hex digits of a status word, or null when the text is not one. */
export function parseStatus(text: string): number | null {
  return /^[0-9A-Fa-f]{8}$/.test(text) ? Number.parseInt(text, 16) : null;
}

/** Traccar's attributes for a status word: `status`, `ignition`, `blocked`, `door`, `armed`, `alarm`. */
export function statusAttributes(status: number): Record<string, unknown> {
  const active = (bit: number) => ((status >>> bit) & 1) === 0;
  const attributes: Record<string, unknown> = {
    status,
    ignition: !active(BIT.accOff),
    blocked: active(BIT.fuelCut),
    door: active(BIT.door),
    armed: active(BIT.armed),
  };
  const alarms = ALARM_BITS.filter(([bit]) => active(bit)).map(([, alarm]) => alarm);
  if (alarms.length > 0) attributes.alarm = alarms.join(',');
  return attributes;
}
