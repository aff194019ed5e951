// H02 frames for the tests: the vectors of the Traccar reference (A.10, numbered as there), and
// frames built from the protocol's layouts for what the reference does not cover. Shared by
// the decoder's unit tests, its fuzz test and the TCP/UDP integration suite.

/** traccar-reference.md A.10, H02 (text vectors as text, binary ones as hex). */
export const REFERENCE_VECTORS = {
  1: '*HQ,9001000002,V8,213945,A,3542.2043,N,38.6508,W,0.00,170,221025,FBFFF9FF,0,0,0,0,22,31,126,0#',
  2: '*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#',
  3: '*HQ,355488020119695,V1,050418,,2827.61232,N,07703.84822,E,0.00,0,031015,FFFEFBFF#',
  4: '*HQ,1451316409,V1,030149,A,-23-29.0095,S,-46-51.5852,W,2.4,065,070315,FFFFFFFF#',
  7: '*HQ,135790246811220,HTBT,100#',
  8: '*HQ,135790246811220,HTBT#',
  9: '*HQ,353505510948929,V1,,V,,N,,E,0.00,0,,FFFFF7FF,f0,a,11a0,c0c6#',
  10: '24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f',
  11: '*TH,2020916012,V1,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFF#\r\n',
} as const;

/**
 * Frames of the documented layouts, with values of our own: tracker 4210051415 in São Paulo on
 * 2025-07-01 at 10:15:00 (device clock), Brazilian cells (MCC 724, Vivo 10).
 */
export const LAYOUT_VECTORS = {
  /** V4: the answer to an engine stop (S20 sent at 13:03:05), the cut output now active (bit 27 at 0). */
  engineStopDone: '*HQ,4210051415,V4,S20,DONE,130305,101500,A,2330.1000,S,04637.8000,W,0.00,000,010725,F7FFFBFF#',
  /** V4 without a location. */
  answerOnly: '*HQ,4210051415,V4,S20,ERROR#',
  /** Ignition on (bit 10 at 1), SOS (bit 1 at 0) and main power cut (bit 19 at 0). */
  sosPowerCut: '*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,35.50,270,010725,FFF7FFFD#',
  /** V1 with the serving cell in decimal. */
  cellDecimal: '*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,10.00,090,010725,FFFFFFFF,724,10,2231,7980#',
  /** V2 with a coding scheme for validity and the serving cell in hex, spaces and all (2d4 = 724). */
  cellHex: '*HQ,860000000000011,V2,101500,0,2330.10000,S,04637.80000,W,0.25,0,010725,FFFFFFFF,2d4,a,  8b7,1f2c#',
  /** V1 with odometer (m), temperature, fuel, altitude, LAC and CID. */
  odometer: '*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,0.50,023,010725,FFFFDFFF,1234567,25,55.5,760,8B7,1F2C#',
  /** V19: SIM fields (empty, IP, ICCID) between the date and the status. */
  v19: '*HQ,4210051415,V19,101500,A,2330.1000,S,04637.8000,W,000.00,000,010725,,10.0.0.1,89550000000000000001,FFFFFBFF#',
  /** A battery field between the course and the date. */
  batteryField: '*HQ,4210051415,V1,101500,A,2330.1000,S,04637.8000,W,000.5,047,4,010725,FFFFFBFF#',
  /** NBR: three neighbouring cells (lac, cid, signal). */
  nbr: '*HQ,4210051415,NBR,101500,724,10,0,3,2231,7980,40,2231,7981,31,2240,1102,12,010725,FFFFFBFF#',
  /** LINK: signal 15, 0 satellites, battery 84 %, 120 steps, 3 turnovers. */
  link: '*HQ,4210051415,LINK,101500,15,0,84,120,3,010725,FFFFFBFF#',
  /** V3: MCC and MNC run together, two cells of four fields, battery and reboot fields, X. */
  v3: '*HQ,4210051415,V3,101500,72410,02,002231,007980,150,-60,002231,007981,140,,0292,0,X,010725,FFFFFBFF#',
  /** VP1 with cells separated by Y. */
  vp1Cells: '*hq,860000000000011,VP1,V,724,010,2231,7980,40Y2231,7981,31#',
  /** VP1 with a fix dated by its day. */
  vp1Fix: '*hq,860000000000011,VP1,A,2330.1000,S,04637.8000,W,0.48,0.0000,010725#',
  /** A heartbeat of the V0 form. */
  v0: '*HQ,4210051415,V0#',
  /** A type we do not read: names the device only. */
  unknownType: '*HQ,4210051415,XT,1,100#',
  /** Binary, 32 bytes, 10-digit id: battery level 5 (80 %), valid, south, west, 35 knots, course 270. */
  binaryShort: '24421005141510150001072523301000050463780002035270fffffbffff0001',
  /** Binary, 42 bytes, 15-digit id in 8 BCD bytes, the same report. */
  binaryLongId: '24860000000000011010150001072523301000050463780002035270fffffbff00000000000000000000',
} as const;

export const textFrame = (frame: string): Buffer => Buffer.from(frame, 'latin1');
export const binaryFrame = (hex: string): Buffer => Buffer.from(hex, 'hex');
