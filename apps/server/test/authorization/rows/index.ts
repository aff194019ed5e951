// The whole authorization table: one file per area.
import type { Row } from '../table.ts';
import { auditRows } from './audit.ts';
import { commandsRows } from './commands.ts';
import { devicesRows, groupsRows } from './devices.ts';
import { entityRows } from './entities.ts';
import { historyRows } from './history.ts';
import { permissionsRows } from './permissions.ts';
import { serverRows } from './server.ts';
import { sessionRows } from './session.ts';
import { usersRows } from './users.ts';

export const ROWS: Row[] = [
  ...serverRows,
  ...sessionRows,
  ...usersRows,
  ...devicesRows,
  ...groupsRows,
  ...permissionsRows,
  ...entityRows,
  ...commandsRows,
  ...historyRows,
  ...auditRows,
];

/** Rows for endpoints that are not Fastify routes of the web port (device ports). */
export const outsideFastify = (row: Row): boolean => row.route.startsWith('INGEST ');
