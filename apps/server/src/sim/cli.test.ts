// The simulator's command line: protocols (one, several, all), ports (Traccar's defaults, one
// port, one per protocol), the numbers, and --create's credentials; bad lines say what is wrong.
import { describe, expect, it } from 'vitest';
import { UsageError, parseSimulateArgs } from './cli.ts';

const parse = (line: string, env: NodeJS.ProcessEnv = {}) => parseSimulateArgs(line.split(' ').filter(Boolean), env);

describe('npm run simulate arguments', () => {
  it('the brief\'s example: GT06 on Traccar\'s port, 100 devices, a report every 5 s, nothing created', () => {
    const args = parse('--protocol gt06 --devices 100');
    expect(args.simulator).toMatchObject({
      protocols: ['gt06'], devices: 100, firstDevice: 0, host: '127.0.0.1', ports: { gt06: 5023 }, transport: 'tcp',
      intervalMs: 5000, heartbeatMs: 60_000, replyDelayMs: 300,
    });
    expect(args.create).toBeNull();
    expect(args.durationS).toBeNull();
  });

  it('host, port, interval, UDP, duration', () => {
    const args = parse('--protocol h02 --host 10.0.0.5 --port 15013 --interval 2 --udp --duration 30 --heartbeat 0');
    expect(args.simulator).toMatchObject({ host: '10.0.0.5', ports: { h02: 15013 }, intervalMs: 2000, transport: 'udp', heartbeatMs: 0 });
    expect(args.durationS).toBe(30);
  });

  it('all protocols on their default ports, or each on its own', () => {
    expect(parse('--protocol all').simulator.ports).toEqual({ gt06: 5023, teltonika: 5027, h02: 5013, suntech: 5011 });
    expect(parse('--protocol gt06,suntech --port gt06=15023,suntech=15011').simulator.ports).toEqual({ gt06: 15023, suntech: 15011 });
    expect(parse('--protocol gt06,suntech --port gt06=15023').simulator.ports).toEqual({ gt06: 15023, suntech: 5011 });
  });

  it('--create: the password from the flag, else RASTRO_ADMIN_PASSWORD; the URL from the host', () => {
    expect(parse('--protocol gt06 --create --password p1').create).toEqual({ url: 'http://127.0.0.1:8082', user: 'admin', password: 'p1' });
    expect(parse('--protocol gt06 --create --host ::1', { RASTRO_ADMIN_PASSWORD: 'p2' }).create).toEqual({ url: 'http://[::1]:8082', user: 'admin', password: 'p2' });
    expect(parse('--protocol gt06 --create --url http://x:9000/ --user boss --password p').create).toEqual({ url: 'http://x:9000', user: 'boss', password: 'p' });
  });

  it.each([
    ['', /--protocol is required/],
    ['--protocol tk103', /unknown protocol "tk103"/],
    ['--protocol gt06,h02 --port 5023', /needs a single --protocol/],
    ['--protocol gt06 --port h02=5013', /names h02, which is not simulated/],
    ['--protocol gt06 --port 70000', /no valid port for gt06/],
    ['--protocol gt06 --devices 0', /--devices must be a positive number/],
    ['--protocol gt06 --interval x', /--interval must be a positive number/],
    ['--protocol gt06 --create', /needs the administrator password/],
    ['--protocol gt06 --bogus', /Unknown option '--bogus'/],
  ])('refuses %j', (line, message) => {
    expect(() => parse(line)).toThrow(UsageError);
    expect(() => parse(line)).toThrow(message);
  });
});
