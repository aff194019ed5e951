// The contract between a device protocol (GT06, Teltonika, H02, Suntech, …) and the listener
// that serves it over TCP and UDP (ingest/tcp/). A protocol is pure: it splits bytes into
// frames, decodes a frame into fixes and the answer the device expects, and encodes commands.
// It never touches sockets, the database or timers; the listener owns sessions, device lookup,
// acknowledgements after commit, back-pressure, limits, status and command delivery.
//
// A new protocol is one folder `ingest/<name>/` exporting a ProtocolDefinition, and one line in
// `ingest/protocols.ts`. Its unit tests feed raw bytes to `frameLength` and `decode`.
import type { OutgoingCommand } from '../commands/command-delivery.ts';
import type { DecodedFix } from './decoded.ts';

export type Transport = 'tcp' | 'udp';

/**
 * What a protocol may know about the connection (TCP) or the remote address (UDP) a frame came
 * from. The listener keeps one per connection; `state` is the protocol's own, kept across frames.
 */
export interface ProtocolSession {
  readonly transport: Transport;
  /** `address:port` of the device. */
  readonly remote: string;
  /** The device's unique id once a frame identified it (login, IMEI handshake, id in the frame). */
  readonly uniqueId: string | null;
  /** The identified device's own attributes (null before identification). */
  readonly deviceAttributes: Readonly<Record<string, unknown>> | null;
  /** The protocol's state for this connection (e.g. GT06's time-zone, Teltonika's codec); starts empty. */
  state: Record<string, unknown>;
}

/** What one frame means. Every field is optional: a heartbeat may only want an ack. */
export interface FrameResult {
  /**
   * The device this frame names (GT06 login, Teltonika IMEI, the id H02 and Suntech put in every
   * frame). The listener looks it up: an unknown, disabled or expired device is logged with this
   * id (so an operator can add it), `reject` is written if given, and the connection is closed.
   * A frame that names no device on a session not yet identified is dropped (no ack), as Traccar does.
   */
  uniqueId?: string;
  /**
   * Fixes to store, in order, for the session's device (times already in UTC when the protocol
   * knows the zone; `clock: 'device'` when the time is the device clock's, which may be local).
   * A command reply is a fix with `outdated: true` and the reply text in `attributes.result`.
   */
  fixes?: DecodedFix[];
  /**
   * The answer the device expects. Written once every fix of this frame is committed (so nothing
   * acknowledged is ever lost), or at once after identification when there are no fixes.
   */
  ack?: Buffer;
  /** Written instead of `ack` when the device named by `uniqueId` is unknown (Teltonika's 0x00). */
  reject?: Buffer;
}

/** Bytes that cannot be a frame of this protocol: the listener logs them and closes the connection. */
export class FrameError extends Error {}

export interface ProtocolDefinition {
  /** Lower-case name, as in positions' `protocol` and `PROTOCOL_COMMAND_TYPES` (@rastro/domain/commands). */
  readonly name: string;
  /** Traccar's default port (GT06 5023, Teltonika 5027, H02 5013, Suntech 5011). */
  readonly defaultPort: number;
  readonly transports: readonly Transport[];
  /** How raw frames are shown in the device log: hex, or text (binary frames of a text protocol are shown as hex). */
  readonly logAs: 'hex' | 'text';
  /** The largest frame accepted; a longer one (or a length field announcing one) is a FrameError. */
  readonly maxFrameBytes: number;
  /**
   * Length of the complete frame starting at `buffer[offset]`, 0 when more bytes are needed.
   * Throws FrameError on bytes that cannot start a frame. Must be cheap: it runs on every read.
   * Over UDP each datagram is split the same way (most protocols: one frame per datagram).
   */
  frameLength(buffer: Buffer, offset: number, session: ProtocolSession): number;
  /**
   * Decodes one whole frame (as `frameLength` delimited it). `now` is the server time the bytes
   * arrived. Throws FrameError (or DecodeError) on a frame that cannot be decoded; the listener
   * closes the connection.
   */
  decode(frame: Buffer, session: ProtocolSession, now: number): FrameResult;
  /**
   * The bytes that carry `command` to the device on this session, or null when the protocol does
   * not support that type. The listed types are in PROTOCOL_COMMAND_TYPES.
   */
  encodeCommand(command: OutgoingCommand, session: ProtocolSession): Buffer | null;
}
