// Suntech alert and emergency ids as Traccar's alarm names. Alert ids (ALT) come from Suntech's
// alert table (ST300 manuals, universal protocol); emergency ids (EMG) from its emergency table.
// Ids without an alarm of ours (deep sleep, route deviation, RPM…) stay in `alertId`/`emergencyId`.

const ALERTS: Readonly<Record<number, string>> = {
  1: 'overspeed', // started driving faster than the speed limit
  3: 'gpsAntennaCut', // GPS antenna disconnected
  5: 'geofenceExit',
  6: 'geofenceEnter',
  14: 'lowBattery', // vehicle battery very low
  15: 'vibration', // shocked
  16: 'accident', // collision
  40: 'powerRestored', // main power connected
  41: 'powerCut', // main power disconnected
  42: 'sos', // panic button
  46: 'hardAcceleration',
  47: 'hardBraking',
  48: 'hardCornering',
  50: 'jamming',
  132: 'door',
};

const EMERGENCIES: Readonly<Record<number, string>> = {
  1: 'sos', // panic button
  2: 'parking', // parking lock
  3: 'powerCut', // main power removed
  5: 'door', // anti-theft door
  6: 'door',
  7: 'movement', // anti-theft motion
  8: 'vibration', // anti-theft shock
};

/** Alert 59: an iButton was inserted; its id travels in the alert data. */
export const IBUTTON_INSERTED = 59;

export const alertAlarm = (id: number | null): string | undefined => (id === null ? undefined : ALERTS[id]);
export const emergencyAlarm = (id: number | null): string | undefined => (id === null ? undefined : EMERGENCIES[id]);
