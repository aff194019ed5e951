import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { commandResultEvent } from './command-result.ts';
import { at, T0 } from './test-helpers.ts';

const brief = (events: EventDraft[]) => events.map((e) => ({ type: e.type, t: (e.eventTime - T0) / 1000, ...e.attributes }));

describe('commandResult', () => {
  it('a position with a result attribute', () => {
    const out: EventDraft[] = [];
    commandResultEvent(out, at(0));
    commandResultEvent(out, at(1, { attributes: { result: 'OK relay 1' } }));
    commandResultEvent(out, at(2, { attributes: { result: '' } }));
    expect(brief(out)).toEqual([{ type: 'commandResult', t: 1, result: 'OK relay 1' }]);
  });
});
