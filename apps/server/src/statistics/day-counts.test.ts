import { describe, expect, it } from 'vitest';
import { DAY_MS, DayCounts, dayEnd, isEmpty, mergeDeltas, type DayDelta } from './day-counts.ts';

const DAY1 = Date.parse('2024-07-01T00:00:00Z');
const DAY2 = DAY1 + DAY_MS;
const DAY3 = DAY2 + DAY_MS;

describe('day counts', () => {
  it('marks a day by the UTC midnight that ends it', () => {
    expect(dayEnd(DAY1)).toBe(DAY2);
    expect(dayEnd(DAY2 - 1)).toBe(DAY2);
    expect(dayEnd(DAY1 + 12 * 3_600_000)).toBe(DAY2);
  });

  it('counts requests, messages and mails; users and devices once each, devices with their protocol', () => {
    const counts = new DayCounts(DAY1 + 1000);
    counts.request(7, DAY1 + 2000);
    counts.request(7, DAY1 + 3000);
    counts.request(8, DAY1 + 4000);
    counts.messageReceived(DAY1 + 5000);
    counts.messageReceived(DAY1 + 5000);
    counts.messageStored(3, 'osmand', DAY1 + 6000);
    counts.messageStored(3, 'osmand', DAY1 + 7000);
    counts.mailSent(DAY1 + 8000);
    const [delta, ...rest] = counts.take(DAY1 + 9000);
    expect(rest).toEqual([]);
    expect(delta).toEqual({
      captureTime: DAY2,
      counts: { requests: 3, messagesReceived: 2, messagesStored: 2, mailSent: 1, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0 },
      users: [7, 8],
      devices: [[3, 'osmand']],
    });
  });

  it('hands over only what came since the last take: ids already handed over are not repeated', () => {
    const counts = new DayCounts(DAY1);
    counts.request(7, DAY1 + 1);
    counts.messageStored(3, 'osmand', DAY1 + 1);
    counts.take(DAY1 + 2);
    expect(counts.take(DAY1 + 3)).toEqual([]);
    counts.request(7, DAY1 + 4);
    counts.messageStored(3, 'osmand', DAY1 + 4);
    counts.messageStored(3, 'gt06', DAY1 + 5);
    const [delta] = counts.take(DAY1 + 6);
    expect(delta!.counts.requests).toBe(1);
    expect(delta!.users).toEqual([]);
    // Heard on another protocol: the device's protocol that day changes.
    expect(delta!.devices).toEqual([[3, 'gt06']]);
  });

  it('closes the day at midnight: counts before it belong to that day, after it to the next, ids start afresh', () => {
    const counts = new DayCounts(DAY1 + 5);
    counts.request(7, DAY2 - 1);
    counts.request(7, DAY2);
    counts.request(7, DAY2 + 1);
    const deltas = counts.take(DAY2 + 2);
    expect(deltas.map((d) => [d.captureTime, d.counts.requests, d.users])).toEqual([
      [DAY2, 1, [7]],
      [DAY3, 2, [7]],
    ]);
    expect(counts.dayEnd).toBe(DAY3);
  });

  it('closes a day on take too, when nothing was counted since midnight', () => {
    const counts = new DayCounts(DAY1);
    counts.mailSent(DAY1 + 10);
    const deltas = counts.take(DAY2 + 10);
    expect(deltas.map((d) => [d.captureTime, d.counts.mailSent])).toEqual([[DAY2, 1]]);
    expect(counts.take(DAY3 + 10)).toEqual([]);
  });

  it('merges an unsaved delta with the next of the same day', () => {
    const a: DayDelta = { captureTime: DAY2, counts: { requests: 2, messagesReceived: 1, messagesStored: 1, mailSent: 0, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0 }, users: [7], devices: [[3, 'osmand']] };
    const b: DayDelta = { captureTime: DAY2, counts: { requests: 1, messagesReceived: 0, messagesStored: 4, mailSent: 1, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0 }, users: [7, 9], devices: [[3, 'gt06'], [4, 'h02']] };
    expect(mergeDeltas(a, b)).toEqual({
      captureTime: DAY2,
      counts: { requests: 3, messagesReceived: 1, messagesStored: 5, mailSent: 1, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0 },
      users: [7, 9],
      devices: [[3, 'gt06'], [4, 'h02']],
    });
    expect(isEmpty({ ...a, counts: { ...a.counts, requests: 0, messagesReceived: 0, messagesStored: 0 }, users: [], devices: [] })).toBe(true);
  });
});
