// GT06 (Concox and its clones): binary frames over TCP on Traccar's port 5023.
import type { ProtocolDefinition } from '../protocol.ts';
import { GT06 } from './constants.ts';
import { decodeGt06 } from './decode.ts';
import { encodeGt06Command } from './encode-command.ts';
import { gt06FrameLength, MAX_FRAME_BYTES } from './framing.ts';

export const gt06Protocol: ProtocolDefinition = {
  name: GT06,
  defaultPort: 5023,
  transports: ['tcp'],
  logAs: 'hex',
  maxFrameBytes: MAX_FRAME_BYTES,
  frameLength: (buffer, offset) => gt06FrameLength(buffer, offset),
  decode: decodeGt06,
  encodeCommand: encodeGt06Command,
};
