import { beforeAll, describe, expect, it } from 'vitest';
import i18next from '../../i18n/translator.ts';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { commandLogFrom, withEntry } from './command-log-api.ts';
import { commandDetailKey, commandLabel, commandSteps, stepTime } from './command-log-text.ts';

const pt = texts['pt-BR'];
const T0 = '2026-01-01T10:00:00.000+00:00';
const T1 = '2026-01-01T10:00:05.000+00:00';
const T2 = '2026-01-01T10:00:07.000+00:00';
const T3 = '2026-01-01T10:00:20.000+00:00';

const entry = (extra: Partial<CommandLogEntry> = {}): CommandLogEntry => ({
  id: 1, deviceId: 7, userId: 1, type: 'engineStop', description: null, attributes: {}, status: 'queued', reason: 'offline',
  createdTime: T0, sentTime: null, acknowledgedTime: null, confirmedTime: null, failedTime: null, result: null, ...extra,
});

beforeAll(() => initTestI18n());

describe('command lifecycle texts', () => {
  it('lock and unlock by their button names; others by description or type', () => {
    const t = i18next.t;
    expect(commandLabel(entry(), t)).toBe(pt.device.actions.lock);
    expect(commandLabel(entry({ type: 'engineResume' }), t)).toBe(pt.device.actions.unlock);
    expect(commandLabel(entry({ type: 'custom', description: 'Corta relé', attributes: { 'tarkan.changeNative': 'engineStop' } }), t))
      .toBe(`${pt.device.actions.lock} (Corta relé)`);
    expect(commandLabel(entry({ type: 'custom', description: 'Status' }), t)).toBe('Status');
    expect(commandLabel(entry({ type: 'rebootDevice' }), t)).toBe(pt.device.commandTypes.rebootDevice);
    expect(commandLabel(entry({ type: 'someNewType' }), t)).toBe('someNewType');
  });

  it('the steps reached, in order; a command written at once was never queued', () => {
    expect(commandSteps(entry()).map((s) => s.step)).toEqual(['queued']);
    const done = entry({ status: 'confirmed', sentTime: T1, acknowledgedTime: T2, confirmedTime: T3 });
    expect(commandSteps(done)).toEqual([
      { step: 'queued', at: T0 }, { step: 'sent', at: T1 }, { step: 'acknowledged', at: T2 }, { step: 'confirmed', at: T3 },
    ]);
    expect(commandSteps(entry({ status: 'sent', sentTime: T0 })).map((s) => s.step)).toEqual(['sent']);
    expect(commandSteps(entry({ status: 'failed', reason: 'cancelled', failedTime: T1 })).map((s) => s.step)).toEqual(['queued', 'failed']);
    // The position showing the effect came before the reply: listed in the order they happened.
    const replyLast = entry({ status: 'confirmed', sentTime: T1, confirmedTime: T2, acknowledgedTime: T3, result: 'OK' });
    expect(commandSteps(replyLast).map((s) => s.step)).toEqual(['queued', 'sent', 'confirmed', 'acknowledged']);
    // Same instant: the lifecycle's order.
    const atOnce = entry({ status: 'confirmed', sentTime: T1, confirmedTime: T2, acknowledgedTime: T2 });
    expect(commandSteps(atOnce).map((s) => s.step)).toEqual(['queued', 'sent', 'acknowledged', 'confirmed']);
  });

  it('the line under each status says why it waits, what it awaits, or why it failed', () => {
    expect(commandDetailKey(entry({ reason: 'speed' }))).toBe('reason.speed');
    expect(commandDetailKey(entry({ reason: 'nextMessage' }))).toBe('reason.nextMessage');
    expect(commandDetailKey(entry({ status: 'sent', reason: null }))).toBe('awaitingReply');
    expect(commandDetailKey(entry({ status: 'acknowledged', reason: null }))).toBe('awaitingEffect');
    expect(commandDetailKey(entry({ status: 'acknowledged', type: 'custom', reason: null }))).toBeNull();
    expect(commandDetailKey(entry({ status: 'acknowledged', reason: 'unconfirmed' }))).toBe('reason.unconfirmed');
    expect(commandDetailKey(entry({ status: 'failed', reason: 'timeout' }))).toBe('reason.timeout');
    expect(commandDetailKey(entry({ status: 'confirmed', reason: null }))).toBeNull();
    // Every key exists in the texts.
    for (const key of ['reason.offline', 'reason.nextMessage', 'reason.speed', 'reason.timeout', 'reason.cancelled', 'reason.superseded', 'reason.unsupported', 'reason.unconfirmed', 'awaitingReply', 'awaitingEffect']) {
      expect(i18next.exists(`device.commandLog.${key}`), key).toBe(true);
    }
  });

  it('times of today without the date, older ones with it', () => {
    const now = Date.parse(T3);
    expect(stepTime(T1, 'en', now)).not.toContain('2026');
    expect(stepTime(T1, 'en', now + 3 * 86_400_000)).toContain('2026');
  });

  it('reads the entry from a send answer (null from Traccar) and merges it into the list', () => {
    expect(commandLogFrom({ id: 0, type: 'custom' })).toBeNull();
    expect(commandLogFrom(null)).toBeNull();
    expect(commandLogFrom({ commandLog: entry() })).toEqual(entry());
    const list = [entry({ id: 2 }), entry({ id: 1 })];
    expect(withEntry(list, entry({ id: 3 })).map((e) => e.id)).toEqual([3, 2, 1]);
    expect(withEntry(list, entry({ id: 1, status: 'sent' })).map((e) => [e.id, e.status])).toEqual([[2, 'queued'], [1, 'sent']]);
    expect(withEntry(undefined, entry())).toHaveLength(1);
    expect(withEntry([1, 2, 3, 4, 5].map((id) => entry({ id })), entry({ id: 9 }))).toHaveLength(5);
  });
});
