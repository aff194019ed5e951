// PostgreSQL schemas of the server suites. Every test server gets its own schema, named after
// the run, and the schemas are dropped together once the whole run is over (global-setup.ts),
// never while tests run: Kysely's migrator looks at the tables of every schema before it
// migrates, and a schema dropped by a neighbouring test at that moment fails that look-up
// ("relation … does not exist").
import crypto from 'node:crypto';
import pg from 'pg';

/** The run's prefix, set by global-setup.ts (a run started some other way falls back to its pid). */
export function schemaPrefix(): string {
  return `t_${process.env.RASTRO_TEST_RUN ?? `p${process.pid}`}_`;
}

/** A fresh schema name for one test server. */
export function newSchemaName(): string {
  return `${schemaPrefix()}${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
}

/** Drops every schema whose name starts with `prefix`; returns how many. */
export async function dropSchemas(url: string, prefix: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)",
      [prefix],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
    return rows.length;
  } finally {
    await client.end();
  }
}
