// The device side of a tracker protocol, as the simulator and the protocols benchmark speak it:
// the frames a GT06, Teltonika, H02 or Suntech unit writes (login, reports, heartbeats, command
// replies) and how it reads what the server writes back (acks, commands). The server's own
// decoders (ingest/<protocol>/) only read frames; these are the other half, tested by decoding
// their output with those decoders. One speaker per connection (it keeps serial numbers).
import type { Transport } from '../../ingest/protocol.ts';

export type SimProtocol = 'gt06' | 'teltonika' | 'h02' | 'suntech';

/** What a tracker reports: one fix of a simulated vehicle, in the units trackers use. */
export interface TrackerFix {
  /** Epoch ms of the fix (the tracker's clock, UTC). */
  time: number;
  latitude: number;
  longitude: number;
  /** Metres above sea level. */
  altitude: number;
  /** Degrees, direction of travel. */
  course: number;
  speedKmh: number;
  satellites: number;
  ignition: boolean;
  /** Engine cut (relay output on), as the last engineStop / engineResume left it. */
  blocked: boolean;
  alarm: 'sos' | 'overspeed' | null;
  /** Supply voltage. */
  power: number;
  /** Metres driven since the tracker was installed. */
  odometer: number;
}

/** A frame the tracker writes. */
export interface OutFrame {
  bytes: Buffer;
  /** The protocol answers this frame; the tracker waits for that ack. */
  acked: boolean;
  /** Fixes it carries (0 for a login, heartbeat or a reply without a position). */
  fixes: number;
}

/** What a command the server sent asks of the device (the simulator's reading of its text). */
export type CommandAction = 'engineStop' | 'engineResume' | 'positionSingle' | 'rebootDevice' | 'custom';

export interface DeviceCommand {
  action: CommandAction;
  /** The command as it travelled (GT06 / Teltonika / Suntech payload, H02 frame), for the reply. */
  text: string;
  /** What the protocol's reply must echo (GT06's server flag, H02's instruction name…). */
  tag: string;
}

/** One message the server wrote, as the tracker understands it. */
export type ServerMessage =
  | { kind: 'ack' }
  /** Teltonika's 0x00 to the IMEI: the server does not know this device. */
  | { kind: 'reject' }
  | { kind: 'command'; command: DeviceCommand }
  /** Understood but needs nothing (a time sync, an unknown instruction). */
  | { kind: 'ignore' };

/** The device end of one connection (TCP) or one device's datagrams (UDP). */
export interface DeviceSpeaker {
  readonly protocol: SimProtocol;
  readonly transport: Transport;
  /** Most fixes one report frame carries (Teltonika packs what it buffered; the others one). */
  readonly maxFixesPerFrame: number;
  /** Waits for each report's ack before sending the next (Teltonika's AVL packets). */
  readonly oneInFlight: boolean;
  /** The first frame on a new connection (GT06 login, Teltonika IMEI), or null. */
  hello(): OutFrame | null;
  report(fixes: readonly TrackerFix[]): OutFrame;
  /** A keep-alive between reports (it may carry status: ignition, engine cut). */
  heartbeat(fix: TrackerFix): OutFrame;
  /** The device's answer to a command it carried out (`fix` is its state afterwards). */
  reply(command: DeviceCommand, result: string, fix: TrackerFix): OutFrame;
  /**
   * Length of the whole server message at `buffer[offset]`, 0 when more bytes are needed.
   * Throws on bytes that cannot start one (the tracker drops the connection, as real ones do).
   */
  serverFrameLength(buffer: Buffer, offset: number): number;
  read(message: Buffer): ServerMessage;
}

export interface TrackerEncoder {
  readonly protocol: SimProtocol;
  readonly transports: readonly Transport[];
  /** A unique id of this protocol's usual form for simulated device `index` (IMEI, serial). */
  uniqueId(index: number): string;
  speaker(uniqueId: string, transport: Transport): DeviceSpeaker;
}

/** Bytes the server sent that this device cannot read: the tracker drops the connection. */
export class ServerFrameError extends Error {}

/**
 * Reads a command the way trackers' firmware does: engine cut and restore, locate, reboot (the
 * texts the server's encoders send: GT06 `Relay,1#` / `DYD,…#`, Teltonika `setdigout 1`, H02
 * `S20,<time>,1,1`, Suntech's output commands); anything else is a custom command.
 */
export function commandAction(text: string): CommandAction {
  const t = text.trim().toUpperCase();
  if (/^(DYD,|RELAY,1|SETDIGOUT 1|S20,[^,]*,1,1\b)/.test(t)) return 'engineStop';
  if (/^(HFYD,|RELAY,0|SETDIGOUT 0|S20,[^,]*,1,0\b)/.test(t)) return 'engineResume';
  if (/^(WHERE#|GETRECORD)/.test(t)) return 'positionSingle';
  if (/^(RESET#|CPURESET)/.test(t)) return 'rebootDevice';
  return 'custom';
}
