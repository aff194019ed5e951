// Positions, events and reports. Everyone who sees a vehicle reads its live data; history and
// reports are the reports area, which the share visitor (live view only) and the QR driver do
// not have. Reports leave out devices the caller cannot see (Traccar), so a stranger gets an
// empty answer rather than a refusal.
import { NO, SIGNED_OUT, deviceIds, none, type Expect } from '../roles.ts';
import { devices, everyDevice, seesDevices } from '../model.ts';
import { period, type Row } from '../table.ts';
import { CUSTOMER_TREE, SEE_CUSTOMER1 } from './common.ts';

const onlyC1 = deviceIds(devices('customer1'));
const nothing = deviceIds(none);

/** Every visible device, per role (the share visitor's only vehicle included). */
const everyVisible: Expect = {
  admin: deviceIds(everyDevice), admin2: deviceIds(everyDevice), reseller: deviceIds(seesDevices('reseller')),
  subReseller: deviceIds(seesDevices('subReseller')), customer: deviceIds(seesDevices('customer')), unrelated: deviceIds(seesDevices('unrelated')),
  readonly: deviceIds(seesDevices('readonly')), deviceReadonly: deviceIds(seesDevices('deviceReadonly')),
  limitCommands: deviceIds(seesDevices('limitCommands')), shared: deviceIds(seesDevices('shared')), driver: NO, ...SIGNED_OUT,
};

/** A report of C's first vehicle: its data for those who see it, nothing for the others, refused without the reports area. */
const reportOfC1: Expect = {
  admin: onlyC1, admin2: onlyC1, reseller: onlyC1, subReseller: onlyC1, customer: onlyC1, unrelated: nothing, readonly: onlyC1,
  deviceReadonly: nothing, limitCommands: nothing, shared: NO, driver: NO, ...SIGNED_OUT,
};

/** Reports of every visible device. */
const reportOfAll: Expect = { ...everyVisible, shared: NO };

/** A spreadsheet or a mailed report: allowed with the reports area. */
const reportFile: Expect = {
  ...CUSTOMER_TREE, unrelated: 'ok', readonly: 'ok', deviceReadonly: 'ok', limitCommands: 'ok', shared: NO, driver: NO,
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function reportRows(kind: string, options: { files: boolean }): Row[] {
  const base = `/api/reports/${kind}`;
  const rows: Row[] = [
    {
      route: `GET ${base}`,
      variant: "?deviceId=<C's first vehicle>",
      request: ({ w }) => ({ path: `${base}?deviceId=${w.device.customer1}&${period(w)}` }),
      expect: reportOfC1,
    },
    {
      route: `GET ${base}`,
      variant: 'no device named: every device the caller sees',
      request: ({ w }) => ({ path: `${base}?${period(w)}` }),
      expect: reportOfAll,
    },
  ];
  if (options.files) {
    rows.push(
      {
        route: `GET ${base}/xlsx`,
        variant: "the spreadsheet of C's first vehicle",
        request: ({ w }) => ({ path: `${base}/xlsx?deviceId=${w.device.customer1}&${period(w)}`, headers: { accept: XLSX } }),
        expect: reportFile,
      },
      {
        route: `GET ${base}/mail`,
        variant: "the spreadsheet of C's first vehicle by e-mail",
        request: ({ w }) => ({ path: `${base}/mail?deviceId=${w.device.customer1}&${period(w)}` }),
        expect: reportFile,
      },
    );
  }
  return rows;
}

export const historyRows: Row[] = [
  {
    route: 'GET /api/positions',
    variant: 'latest position of every device the caller sees',
    request: () => ({ path: '/api/positions' }),
    expect: everyVisible,
  },
  {
    route: 'GET /api/positions',
    variant: "?deviceId=<C's first vehicle>: its latest position",
    request: ({ w }) => ({ path: `/api/positions?deviceId=${w.device.customer1}` }),
    expect: { ...SEE_CUSTOMER1, admin: onlyC1, admin2: onlyC1, reseller: onlyC1, subReseller: onlyC1, customer: onlyC1, readonly: onlyC1, shared: onlyC1 },
  },
  {
    route: 'GET /api/positions',
    variant: "?deviceId=<C's second vehicle (the QR driver's)>: its latest position",
    request: ({ w }) => ({ path: `/api/positions?deviceId=${w.device.customer2}` }),
    expect: (() => {
      const c2 = deviceIds(devices('customer2'));
      return { ...CUSTOMER_TREE, admin: c2, admin2: c2, reseller: c2, subReseller: c2, customer: c2 };
    })(),
  },
  {
    route: 'GET /api/positions',
    variant: "?deviceId=<C's first vehicle>&from&to: its history",
    request: ({ w }) => ({ path: `/api/positions?deviceId=${w.device.customer1}&${period(w)}` }),
    expect: { ...SEE_CUSTOMER1, admin: onlyC1, admin2: onlyC1, reseller: onlyC1, subReseller: onlyC1, customer: onlyC1, readonly: onlyC1, shared: NO },
  },
  {
    route: 'GET /api/positions',
    variant: "?id=<latest position of C's first vehicle>: others' positions are left out",
    request: ({ w }) => ({ path: `/api/positions?id=${w.position.customer1}` }),
    expect: { ...reportOfC1, shared: onlyC1 },
  },
  {
    route: 'GET /api/events/:id',
    variant: "an alarm of C's first vehicle",
    request: ({ w }) => ({ path: `/api/events/${w.event.customer1}` }),
    expect: SEE_CUSTOMER1,
  },
  ...reportRows('route', { files: true }),
  ...reportRows('summary', { files: true }),
  ...reportRows('events', { files: true }),
  ...reportRows('trips', { files: true }),
  ...reportRows('stops', { files: true }),
  ...reportRows('combined', { files: false }),
];
