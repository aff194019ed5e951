// Teltonika FM devices (FMB, FMC, FMM, FMT, FMP, … and the older FM series) on Traccar's port
// 5027, over TCP and UDP. See docs/devices.md for setting a device up and what is decoded.
import type { ProtocolDefinition } from '../protocol.ts';
import { encodeCommand } from './commands.ts';
import { MAX_FRAME_BYTES, TELTONIKA_PORT, TELTONIKA_PROTOCOL } from './constants.ts';
import { decode } from './decode.ts';
import { frameLength } from './framing.ts';

export const teltonikaProtocol: ProtocolDefinition = {
  name: TELTONIKA_PROTOCOL,
  defaultPort: TELTONIKA_PORT,
  transports: ['tcp', 'udp'],
  logAs: 'hex',
  maxFrameBytes: MAX_FRAME_BYTES,
  frameLength,
  decode,
  encodeCommand,
};
