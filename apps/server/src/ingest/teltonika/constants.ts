// Teltonika's codec ids and the sizes the framing relies on.

export const TELTONIKA_PROTOCOL = 'teltonika';
export const TELTONIKA_PORT = 5027;

/** Codec 8: the FM devices' default AVL data. */
export const CODEC_8 = 0x08;
/** Codec 8 Extended: 2-byte IO ids and counts, plus a group of variable-length IO values. */
export const CODEC_8E = 0x8e;
/** Codec 16: 2-byte IO ids and a generation type per record. */
export const CODEC_16 = 0x10;
/** Codec 12: GPRS commands (type 0x05, server → device) and their responses (type 0x06). */
export const CODEC_12 = 0x0c;
/** Codec 13: a device message with a timestamp (e.g. a serial-port line such as a driver card reader's). */
export const CODEC_13 = 0x0d;

export const COMMAND_TYPE = 0x05;
/** Codec 12 camera data (FMx6 photos): not stored, skipped. */
export const CAMERA_TYPE = 0x0d;

/**
 * Teltonika documents 1,280 bytes as the largest AVL packet its FM devices send (512 for the
 * FMx6 series); command responses are SMS-sized text. 8 KiB leaves room for long codec 8E
 * records (BLE data, VIN) while keeping what one connection may buffer small.
 */
export const MAX_FRAME_BYTES = 8192;

/** TCP: preamble (4 zero bytes) + data length (4) … data … CRC (4). */
export const TCP_HEADER_BYTES = 8;
export const CRC_BYTES = 4;
/** The smallest data field: codec id, record count, record count again. */
export const MIN_DATA_BYTES = 3;
/** The IMEI handshake: 2-byte length + the IMEI's ASCII digits (15 on every FM device). */
export const MAX_IMEI_BYTES = 32;
/** FM devices send this single byte as a keep-alive on an open TCP connection. */
export const PING_BYTE = 0xff;
