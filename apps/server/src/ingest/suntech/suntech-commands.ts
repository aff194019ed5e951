// Suntech commands, in the dialect the tracker reports in:
// - universal firmwares take `CMD;<DEV_ID>;<group>;<action>` (Suntech's universal command
//   table): 04;01 / 04;02 activate / deactivate output 1, 04;03 / 04;04 output 2, 03;01 asks
//   for a status report now, 03;03 reboots. They answer `RES;<DEV_ID>;<group>;<action>;…`.
// - legacy firmwares take `<MODEL>CMD;<DEV_ID>;02;<name>` (ST300 manual: `Enable1`, `Disable1`,
//   `Enable2`, `Disable2`, `StatusReq`, `Reboot`) and answer `<MODEL>CMD;Res;<DEV_ID>;…`.
// Output 1 drives the engine-cut relay: engineStop activates it, engineResume releases it.
// Every command ends with CR; `custom` sends `data` as it is (CR added when missing).
import { commandText } from '@rastro/domain/commands';
import type { OutgoingCommand } from '../../commands/command-delivery.ts';

/** The command types this encoder writes (PROTOCOL_COMMAND_TYPES.suntech). */
export const SUNTECH_COMMAND_TYPES = ['custom', 'engineStop', 'engineResume', 'positionSingle', 'rebootDevice', 'outputControl'] as const;

/** Which command dialect a tracker speaks, learnt from its reports. */
export interface SuntechDialect {
  universal: boolean;
  /** Model prefix of legacy commands (`ST300`, `SA200`…). */
  model: string;
}

const UNIVERSAL = {
  positionSingle: '03;01',
  rebootDevice: '03;03',
  output: { 1: ['04;01', '04;02'], 2: ['04;03', '04;04'] },
} as const;

const LEGACY = { positionSingle: 'StatusReq', rebootDevice: 'Reboot' } as const;

interface Output {
  index: 1 | 2;
  on: boolean;
}

type Action = { output: Output } | { request: 'positionSingle' | 'rebootDevice' };

/** Output index and state of an outputControl command (`index` 1–2, `data` "1" on / "0" off), or null. */
function outputOf(attributes: Record<string, unknown>): Output | null {
  const index = Number(attributes.index);
  const data = String(attributes.data ?? '').trim();
  if ((index !== 1 && index !== 2) || (data !== '1' && data !== '0')) return null;
  return { index, on: data === '1' };
}

function actionOf(command: Pick<OutgoingCommand, 'type' | 'attributes'>): Action | null {
  switch (command.type) {
    case 'engineStop':
      return { output: { index: 1, on: true } };
    case 'engineResume':
      return { output: { index: 1, on: false } };
    case 'outputControl': {
      const output = outputOf(command.attributes);
      return output ? { output } : null;
    }
    case 'positionSingle':
    case 'rebootDevice':
      return { request: command.type };
    default:
      return null;
  }
}

/** The text that carries `command` to the tracker `uniqueId`, or null when Suntech has no instruction for it. */
export function suntechCommandText(command: Pick<OutgoingCommand, 'type' | 'attributes'>, uniqueId: string, dialect: SuntechDialect): string | null {
  if (command.type === 'custom') {
    const text = commandText(command, uniqueId);
    return text.endsWith('\r') ? text : `${text}\r`;
  }
  const action = actionOf(command);
  if (!action) return null;
  if (dialect.universal) {
    const code = 'output' in action ? UNIVERSAL.output[action.output.index][action.output.on ? 0 : 1] : UNIVERSAL[action.request];
    return `CMD;${uniqueId};${code}\r`;
  }
  const name = 'output' in action ? `${action.output.on ? 'Enable' : 'Disable'}${action.output.index}` : LEGACY[action.request];
  return `${dialect.model}CMD;${uniqueId};02;${name}\r`;
}
