// The simulator's device-side encoders, checked by the server's real decoders: every frame a
// simulated tracker writes decodes (ProtocolDefinition.frameLength + decode) to what the
// vehicle reported, the server's answer reads back as the ack the tracker waits for, and the
// server's own command encoders produce commands the tracker carries out and answers.
import { describe, expect, it } from 'vitest';
import type { OutgoingCommand } from '../../commands/command-delivery.ts';
import { gt06Protocol } from '../../ingest/gt06/gt06.ts';
import { h02Protocol } from '../../ingest/h02/h02.ts';
import type { FrameResult, ProtocolDefinition, ProtocolSession, Transport } from '../../ingest/protocol.ts';
import { suntechProtocol } from '../../ingest/suntech/suntech.ts';
import { teltonikaProtocol } from '../../ingest/teltonika/teltonika.ts';
import { kmhToKnots } from '../../demo/geo.ts';
import type { DeviceSpeaker, SimProtocol, TrackerFix } from './encoder.ts';
import { ENCODERS } from './encoders.ts';

const DECODERS: Record<SimProtocol, ProtocolDefinition> = {
  gt06: gt06Protocol, teltonika: teltonikaProtocol, h02: h02Protocol, suntech: suntechProtocol,
};

const NOW = Date.UTC(2025, 6, 1, 12, 0, 30);

const FIX: TrackerFix = {
  time: Date.UTC(2025, 6, 1, 12, 0, 5), latitude: -23.561414, longitude: -46.655881, altitude: 760, course: 87, speedKmh: 54,
  satellites: 10, ignition: true, blocked: false, alarm: null, power: 13.8, odometer: 123_456,
};


/** A custom command each protocol's trackers take (sent as it is, `{uniqueId}` replaced). */
const CUSTOM: Record<SimProtocol, string> = {
  gt06: 'VERSION#', teltonika: 'getver', h02: '*HQ,{uniqueId},D1,120000,30,1#', suntech: 'CMD;{uniqueId};03;02',
};

const command = (type: string): OutgoingCommand => ({ deviceId: 1, type, textChannel: false, attributes: {} });

/** A tracker talking to the real decoder, as the listener would wire them. */
class Link {
  readonly speaker: DeviceSpeaker;
  readonly session: ProtocolSession;
  readonly decoder: ProtocolDefinition;

  constructor(
    readonly protocol: SimProtocol,
    transport: Transport = 'tcp',
  ) {
    const encoder = ENCODERS[protocol];
    this.speaker = encoder.speaker(encoder.uniqueId(7), transport);
    this.decoder = DECODERS[protocol];
    this.session = { transport, remote: '127.0.0.1:40000', uniqueId: null, deviceAttributes: null, state: {} };
  }

  /** Frames `bytes` as the listener does (exactly one frame) and decodes it. */
  decode(bytes: Buffer): FrameResult {
    expect(this.decoder.frameLength(bytes, 0, this.session)).toBe(bytes.length);
    const result = this.decoder.decode(bytes, this.session, NOW);
    if (result.uniqueId && !this.session.uniqueId) Object.assign(this.session, { uniqueId: result.uniqueId, deviceAttributes: {} });
    return result;
  }

  /** The server's answer to a frame, read back by the tracker. */
  answered(result: FrameResult, acked: boolean): void {
    if (!acked) {
      expect(result.ack).toBeUndefined();
      return;
    }
    expect(result.ack).toBeDefined();
    expect(this.speaker.serverFrameLength(result.ack!, 0)).toBe(result.ack!.length);
    expect(this.speaker.read(result.ack!)).toEqual({ kind: 'ack' });
  }

  /** Says hello where the protocol does (and names the device in a first report otherwise). */
  connect(): void {
    const hello = this.speaker.hello();
    if (!hello) return;
    const result = this.decode(hello.bytes);
    expect(result.uniqueId).toBe(ENCODERS[this.protocol].uniqueId(7));
    this.answered(result, hello.acked);
  }

  report(fix: TrackerFix) {
    const frame = this.speaker.report([fix]);
    expect(frame.fixes).toBe(1);
    const result = this.decode(frame.bytes);
    expect(result.uniqueId ?? this.session.uniqueId).toBe(ENCODERS[this.protocol].uniqueId(7));
    this.answered(result, frame.acked);
    expect(result.fixes).toHaveLength(1);
    return result.fixes![0]!;
  }

  /** The server's command for `type`, as the tracker reads it. */
  receive(type: string) {
    const bytes = this.decoder.encodeCommand(command(type), this.session);
    expect(bytes).not.toBeNull();
    expect(this.speaker.serverFrameLength(bytes!, 0)).toBe(bytes!.length);
    const message = this.speaker.read(bytes!);
    if (message.kind !== 'command') throw new Error(`expected a command, got ${message.kind}`);
    return message.command;
  }
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

describe.each(Object.keys(ENCODERS) as SimProtocol[])('%s tracker frames, decoded by the server', (protocol) => {
  it('a report decodes to the vehicle: time, place, speed, course, validity, ignition', () => {
    const link = new Link(protocol);
    link.connect();
    const fix = link.report(FIX);
    expect(fix.protocol).toBe(protocol);
    expect(fix.outdated).toBe(false);
    expect(fix.fixTime).toBe(FIX.time);
    expect(fix.valid).toBe(true);
    expect(round5(fix.latitude)).toBeCloseTo(FIX.latitude, 4);
    expect(round5(fix.longitude)).toBeCloseTo(FIX.longitude, 4);
    expect(fix.speed).toBeCloseTo(kmhToKnots(FIX.speedKmh), 1);
    expect(fix.course).toBe(FIX.course);
    expect(fix.attributes.ignition).toBe(true);
    expect(link.report({ ...FIX, ignition: false, speedKmh: 0 }).attributes.ignition).toBe(false);
  });

  it('no satellites is an invalid fix', () => {
    const link = new Link(protocol);
    link.connect();
    expect(link.report({ ...FIX, satellites: 0 }).valid).toBe(false);
  });

  it('an SOS alarm travels as an alarm', () => {
    const link = new Link(protocol);
    link.connect();
    // Teltonika's generic alarm IO (236) is what an FMB sends for its panic input.
    expect(link.report({ ...FIX, alarm: 'sos' }).attributes.alarm).toBe(protocol === 'teltonika' ? 'general' : 'sos');
  });

  it('a heartbeat decodes and gets the answer the tracker waits for', () => {
    const link = new Link(protocol);
    link.connect();
    link.report(FIX); // H02 and Suntech name the device in their reports
    const frame = link.speaker.heartbeat(FIX);
    link.answered(link.decode(frame.bytes), frame.acked);
  });

  it('engine stop: the tracker reads the server\'s command, answers it, and its next report shows the cut', () => {
    const link = new Link(protocol);
    link.connect();
    link.report(FIX);
    const stop = link.receive('engineStop');
    expect(stop.action).toBe('engineStop');
    const cut = { ...FIX, blocked: true, speedKmh: 0, ignition: false };
    const reply = link.speaker.reply(stop, 'engineStop OK', cut);
    const answer = link.decode(reply.bytes);
    link.answered(answer, reply.acked);
    const result = answer.fixes?.find((f) => typeof f.attributes.result === 'string');
    expect(result?.attributes.result).toMatch(/\S/);
    expect(link.report(cut).attributes.blocked).toBe(true);

    const resume = link.receive('engineResume');
    expect(resume.action).toBe('engineResume');
    link.decode(link.speaker.reply(resume, 'engineResume OK', FIX).bytes);
    expect(link.report(FIX).attributes.blocked).toBe(false);
  });

  it('a custom command is answered with its text', () => {
    const link = new Link(protocol);
    link.connect();
    link.report(FIX);
    const bytes = link.decoder.encodeCommand({ ...command('custom'), attributes: { data: CUSTOM[protocol] } }, link.session);
    const message = link.speaker.read(bytes!);
    expect(message.kind).toBe('command');
    if (message.kind !== 'command') return;
    expect(message.command.action).toBe('custom');
    const answer = link.decode(link.speaker.reply(message.command, 'V1.2.3', FIX).bytes);
    expect(answer.fixes?.[0]?.attributes.result).toMatch(/\S/);
  });
});

describe('tracker frames over UDP', () => {
  it.each(['teltonika', 'h02'] as const)('%s: each datagram names the device and is answered', (protocol) => {
    const link = new Link(protocol, 'udp');
    expect(link.speaker.hello()).toBeNull();
    const fix = link.report(FIX);
    expect(fix.fixTime).toBe(FIX.time);
    expect(link.session.uniqueId).toBe(ENCODERS[protocol].uniqueId(7));
  });
});

describe('Teltonika packs what it buffered into one packet', () => {
  it('several records, one ack', () => {
    const link = new Link('teltonika');
    link.connect();
    const fixes = [0, 1, 2].map((i) => ({ ...FIX, time: FIX.time + i * 1000 }));
    const frame = link.speaker.report(fixes);
    expect(frame.fixes).toBe(3);
    const result = link.decode(frame.bytes);
    expect(result.fixes!.map((f) => f.fixTime)).toEqual(fixes.map((f) => f.time));
    expect(result.ack!.readUInt32BE(0)).toBe(3);
    expect(link.speaker.read(result.ack!)).toEqual({ kind: 'ack' });
  });

  it('a refused IMEI is read as a refusal', () => {
    const link = new Link('teltonika');
    const result = link.decode(link.speaker.hello()!.bytes);
    expect(link.speaker.read(result.reject!)).toEqual({ kind: 'reject' });
  });
});

describe('GT06 odometer and status', () => {
  it('the location carries the odometer in metres; a heartbeat the engine cut', () => {
    const link = new Link('gt06');
    link.connect();
    expect(link.report(FIX).attributes.odometer).toBe(FIX.odometer);
    const status = link.decode(link.speaker.heartbeat({ ...FIX, blocked: true }).bytes);
    expect(status.fixes?.[0]?.attributes.blocked).toBe(true);
  });
});
