// Advanced logs (Plus licence): administrators read every row, a manager (a reseller too) the
// rows of its own tree, nobody else any; Traccar's /api/audit stays administrators only.
import type { Expect } from '../roles.ts';
import { period, type Row } from '../table.ts';
import { ADMINS, CUSTOMER_TREE } from './common.ts';

/** Managers at every level above C, and administrators (the fixture runs with the Plus licence). */
const MANAGERS_OF_C: Expect = CUSTOMER_TREE;

function logRows(prefix: '/api' | '/tarkan'): Row[] {
  return [
    {
      route: `GET ${prefix}/server/logs`,
      variant: 'the log (a manager: its tree only)',
      request: () => ({ path: `${prefix}/server/logs?limit=50` }),
      expect: MANAGERS_OF_C,
    },
    {
      route: `GET ${prefix}/users/:id/logs`,
      variant: "the log of C's employee",
      request: ({ w }) => ({ path: `${prefix}/users/${w.user.staff}/logs` }),
      expect: MANAGERS_OF_C,
    },
    {
      route: `GET ${prefix}/devices/:id/logs`,
      variant: "the log of C's first vehicle (its readonly operator and the visitor see it but manage no one)",
      request: ({ w }) => ({ path: `${prefix}/devices/${w.device.customer1}/logs` }),
      expect: MANAGERS_OF_C,
    },
  ];
}

export const auditRows: Row[] = [
  ...logRows('/api'),
  ...logRows('/tarkan'),
  {
    route: 'GET /api/audit',
    variant: "Traccar's audit of a period",
    request: ({ w }) => ({ path: `/api/audit?${period(w)}` }),
    expect: ADMINS,
  },
];
