// The spreadsheet stream follows its reader: exceljs commits rows into the zip without waiting,
// so without a check a reader that stops (a slow client, a thread waiting for a credit) would
// let every row of the report pile up in memory. Here a reader that does not read stops the
// rows after a few hundred; reading resumes them; destroying the stream ends them.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { xlsxStream, type SheetLayout } from './xlsx.ts';
import type { ReportPrefs } from './report-request.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const prefs: ReportPrefs = { language: 'en', timeZone: 'UTC', speedUnit: 'kn', distanceUnit: 'km' };
const layout: SheetLayout<{ i: number; text: string }> = {
  title: 'reportRoute',
  perDevice: true,
  columns: [
    { header: 'course', kind: 'number', value: (r) => r.i },
    // Text that does not compress away, so the zip's output grows with the rows.
    { header: 'address', kind: 'text', value: (r) => r.text },
  ],
};
const device = { id: 1, name: 'Truck', groupId: null, attributes: '{}' };

function source(count: number) {
  const seen = { pulled: 0, closed: false };
  async function* rows() {
    try {
      for (let i = 0; i < count; i++) {
        seen.pulled++;
        yield { i, text: crypto.randomBytes(48).toString('hex') };
      }
    } finally {
      seen.closed = true;
    }
  }
  return { seen, rows };
}

describe('xlsxStream', () => {
  it('pulls rows only as fast as it is read', async () => {
    const count = 30_000;
    const { seen, rows } = source(count);
    const stream = xlsxStream({ layout, prefs, devices: [device], rows });
    await sleep(700);
    // Unread: a few hundred rows fill the stream's buffer, then nothing more is pulled.
    expect(seen.pulled).toBeLessThan(5_000);
    const stalled = seen.pulled;
    await sleep(300);
    expect(seen.pulled).toBe(stalled);

    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(seen.pulled).toBe(count);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(Buffer.concat(chunks)).buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Truck');
    expect(sheet.rowCount).toBe(count + 1);
    expect(sheet.getRow(count + 1).getCell(1).value).toBe(count - 1);
  });

  it('stops pulling rows once the stream is destroyed', async () => {
    const { seen, rows } = source(1_000_000);
    const stream = xlsxStream({ layout, prefs, devices: [device], rows });
    for await (const _chunk of stream) break; // takes one piece, then destroys the stream
    await sleep(300);
    expect(seen.closed).toBe(true);
    expect(seen.pulled).toBeLessThan(10_000);
  });
});
