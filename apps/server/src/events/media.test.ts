import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { mediaEvents } from './media.ts';
import { at } from './test-helpers.ts';

describe('media', () => {
  it('one event per file attribute (image, video, audio)', () => {
    const out: EventDraft[] = [];
    mediaEvents(out, at(0));
    mediaEvents(out, at(1, { attributes: { image: '123/a.jpg', audio: '123/b.mp3', video: '' } }));
    expect(out.map((e) => [e.type, e.attributes])).toEqual([
      ['media', { media: 'image', file: '123/a.jpg' }],
      ['media', { media: 'audio', file: '123/b.mp3' }],
    ]);
  });
});
