// Helpers of the text-protocol suites (H02, Suntech) over the ByteClient of byte-client.ts:
// text sent as a tracker writes it, the server's answers read up to their terminator, a
// device's positions through the API, and the check that an unknown tracker is turned away.
import { expect, vi } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { ByteClient } from './byte-client.ts';
import type { TestClient, TestServer } from './harness.ts';
import { sleep } from './ingest-helpers.ts';

/** Text as a tracker writes it (ByteClient.send reads a string as hex). */
export const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The next text the server wrote, up to and including `terminator` (`#` for H02, CR for Suntech). */
export async function nextText(client: ByteClient, terminator: string, timeoutMs = 5_000): Promise<string> {
  const byte = terminator.charCodeAt(0);
  const deadline = Date.now() + timeoutMs;
  let end = client.pending.indexOf(byte);
  while (end < 0 && Date.now() < deadline && !client.isClosed) {
    await sleep(10);
    end = client.pending.indexOf(byte);
  }
  if (end < 0) throw new Error(`no answer within ${timeoutMs} ms (got ${JSON.stringify(client.pending.toString('latin1'))})`);
  return (await client.read(end + 1)).toString('latin1');
}

/** The device's positions of the last day, through `GET /api/positions`. */
export async function apiPositions(admin: TestClient, deviceId: number): Promise<Position[]> {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const res = await admin.get<Position[]>(`/api/positions?deviceId=${deviceId}&from=${from}&to=${to}`);
  expect(res.status).toBe(200);
  return res.json;
}

/** A tracker whose `frame` names the unknown `uniqueId` is closed without an answer, and the id logged. */
export async function expectTurnedAway(server: TestServer, port: number, protocol: string, uniqueId: string, frame: Buffer): Promise<void> {
  const warn = vi.spyOn(server.rastro.ctx.log, 'warn');
  try {
    const tracker = await ByteClient.connect(port);
    tracker.send(frame);
    expect(await tracker.waitClosed()).toBe(true);
    expect(tracker.pending.length).toBe(0);
    expect(warn.mock.calls.some((c) => String(c[1]).startsWith(`unknown device ${uniqueId} on ${protocol} from 127.0.0.1:`))).toBe(true);
  } finally {
    warn.mockRestore();
  }
}
