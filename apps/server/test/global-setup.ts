// Once per run of the server suites: names the run (test servers put their PostgreSQL schemas
// under it, see pg-schemas.ts) and drops those schemas when every suite is done.
import crypto from 'node:crypto';
import { dropSchemas, schemaPrefix } from './pg-schemas.ts';

export default function setup(): () => Promise<void> {
  process.env.RASTRO_TEST_RUN = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  return async () => {
    const url = process.env.TEST_DATABASE_URL?.trim();
    if (url) await dropSchemas(url, schemaPrefix());
  };
}
