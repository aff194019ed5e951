// What the server writes to an H02 tracker: the answers its reports expect, and commands.
//
// Answers, as Traccar sends them by default: a `V1` location is answered
// `*HQ,<id>,V4,V1,<yyyyMMddHHmmss>#` and an `NBR` cell list `*HQ,<id>,V4,NBR,<yyyyMMddHHmmss>#`
// (server time, UTC: trackers use it to set their clock), a heartbeat (`HTBT`, `V0`) is echoed
// without its data (`*HQ,<id>,HTBT#`). Other reports get no answer (Traccar's optional `R12`
// answer, off by default, is not sent).
//
// Commands: `*HQ,<id>,<instruction>,<HHmmss>,<parameters>#`. `S20,…,1,1` cuts fuel and
// electricity (static cut: the relay stays open whatever the engine does), `S20,…,1,0` restores
// them; the tracker answers with a `V4,S20,…` report whose status shows the cut output. `custom`
// sends `data` as it is, with `{uniqueId}` replaced.
import { commandText } from '@rastro/domain/commands';
import type { OutgoingCommand } from '../../commands/command-delivery.ts';

/** The command types this encoder writes (PROTOCOL_COMMAND_TYPES.h02). */
export const H02_COMMAND_TYPES = ['custom', 'engineStop', 'engineResume'] as const;

const two = (n: number) => String(n).padStart(2, '0');

function utc(now: number) {
  const d = new Date(now);
  return {
    date: `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`,
    time: `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`,
  };
}

/** The `V4` answer to a `V1` or `NBR` report. */
export function reportAnswer(id: string, type: 'V1' | 'NBR', now: number): Buffer {
  const { date, time } = utc(now);
  return Buffer.from(`*HQ,${id},V4,${type},${date}${time}#`, 'latin1');
}

/** The echo of a heartbeat, without its data. */
export function heartbeatAnswer(id: string, type: string): Buffer {
  return Buffer.from(`*HQ,${id},${type}#`, 'latin1');
}

/** The text that carries `command` to the tracker `uniqueId`, or null for a type H02 has no instruction for. */
export function h02CommandText(command: Pick<OutgoingCommand, 'type' | 'attributes'>, uniqueId: string, now: number): string | null {
  const instruction = (name: string, ...parameters: string[]) => `*HQ,${uniqueId},${name},${[utc(now).time, ...parameters].join(',')}#`;
  switch (command.type) {
    case 'custom':
      return commandText(command, uniqueId);
    case 'engineStop':
      return instruction('S20', '1', '1');
    case 'engineResume':
      return instruction('S20', '1', '0');
    default:
      return null;
  }
}
