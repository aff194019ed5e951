// GET /api/reports/<kind>/mail: 204 at once, then the spreadsheet arrives by e-mail (a real
// local SMTP server receives it; the attachment is decoded and opened with exceljs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Device } from '@rastro/domain/entities';
import { startMailbox } from './mailbox.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { addPosition, create, link, makeUser, type TestUser } from './visibility-fixtures.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const T0 = Date.parse('2024-06-02T12:00:00Z');

/** The base64 body of the MIME part whose Content-Type is `type`, decoded (folded headers unfolded). */
function attachment(raw: string, type: string): { name: string; content: Buffer } {
  const text = raw.replace(/\r\n/g, '\n').replace(/\n[ \t]+/g, ' ');
  const at = text.indexOf(`Content-Type: ${type}`);
  expect(at, 'no attachment part').toBeGreaterThanOrEqual(0);
  const part = text.slice(at);
  const name = /filename="?([^"\n;]+)"?/.exec(part)?.[1] ?? '';
  const body = part.slice(part.indexOf('\n\n') + 2);
  const base64 = body.slice(0, body.indexOf('\n--')).replace(/\s+/g, '');
  return { name, content: Buffer.from(base64, 'base64') };
}

describe.each(backends)('report by e-mail (%s)', (backend) => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let device: Device;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startTestServer(backend, { RASTRO_SMTP_URL: mailbox.url });
    admin = await server.admin();
    user = await makeUser(server, 'reports-mail@test', { attributes: JSON.stringify({ language: 'en', timezone: 'UTC', speedUnit: 'kn', distanceUnit: 'km' }) });
    device = await create<Device>(admin, '/api/devices', { name: 'Mailed', uniqueId: 'rep-mail' });
    await link(server, 'userDevice', user.row.id, device.id);
    await addPosition(server, device.id, { fixTime: T0, speed: 12, attributes: JSON.stringify({ totalDistance: 1000 }) });
    await addPosition(server, device.id, { fixTime: T0 + 60_000, speed: 30, attributes: JSON.stringify({ totalDistance: 3500 }) });
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
  });

  it('answers 204 and mails the spreadsheet to the caller', async () => {
    const from = encodeURIComponent(new Date(T0 - 1000).toISOString());
    const to = encodeURIComponent(new Date(T0 + 3_600_000).toISOString());
    const res = await user.client.get(`/api/reports/summary/mail?deviceId=${device.id}&from=${from}&to=${to}`);
    expect(res.status).toBe(204);
    const end = Date.now() + 10_000;
    while (mailbox.mails.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    const mail = mailbox.mails.at(-1)!;
    expect(mail.to).toEqual(['reports-mail@test']);
    const file = attachment(mail.raw, XLSX);
    expect(file.name).toBe('summary_2024-06-02_2024-06-02.xlsx');
    const wb = new ExcelJS.Workbook();
    // exceljs's types want an ArrayBuffer-backed buffer; hand it a copy of the bytes.
    await wb.xlsx.load(new Uint8Array(file.content).buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Summary');
    expect((ws.getRow(2).values as unknown[]).slice(1, 2)).toEqual(['Mailed']);
    expect(ws.getRow(2).getCell(4).value).toBe(2.5); // 2,500 m in km
    expect(ws.getRow(2).getCell(8).value).toBe(30); // knots
  });

  it('checks the request first: a bad period is refused at once, nothing is sent', async () => {
    const before = mailbox.mails.length;
    const res = await user.client.get(`/api/reports/events/mail?deviceId=${device.id}&from=nope&to=nope`);
    expect(res.status).toBe(400);
    await new Promise((r) => setTimeout(r, 200));
    expect(mailbox.mails.length).toBe(before);
  });
});
