// A migrated database for the commands' unit tests, on each backend the run has: SQLite in a
// temporary folder always, PostgreSQL (a schema of its own, dropped with the run's) when
// TEST_DATABASE_URL is set. Test-only: nothing in the server imports it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStorage, type Storage } from '../storage/db.ts';
import { newSchemaName } from '../../test/pg-schemas.ts';
import type { LoggedCommand } from './command-log-repo.ts';

const pgUrl = process.env.TEST_DATABASE_URL?.trim() || null;

export const testBackends: Array<'sqlite' | 'postgres'> = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export async function openTestStorage(backend: 'sqlite' | 'postgres'): Promise<Storage & { remove(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-commands-'));
  const storage = await openStorage({
    databaseUrl: backend === 'postgres' ? pgUrl : null,
    dataDir,
    ...(backend === 'postgres' ? { pgSchema: newSchemaName() } : {}),
  });
  return {
    ...storage,
    async remove() {
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let seq = 0;

/** A device row (the log's rows reference one). */
export async function addDevice(storage: Storage): Promise<number> {
  const uniqueId = `cmd-${process.pid}-${++seq}`;
  const row = await storage.db
    .insertInto('devices')
    .values({
      name: uniqueId, uniqueId, status: null, disabled: 0, lastUpdate: null, positionId: null, groupId: null, calendarId: null,
      phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: '{}', motionState: 0,
      motionStreak: 0, motionPositionId: null, motionTime: null, motionDistance: 0, motionLatitude: 0, motionLongitude: 0,
      overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export const command = (deviceId: number, type: string): LoggedCommand => ({ deviceId, userId: null, type, description: null, attributes: {} });
