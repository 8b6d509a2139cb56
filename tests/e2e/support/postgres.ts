import pg from "pg";

// The specs that run several app processes need PostgreSQL (PGlite is one process by nature):
// DATABASE_URL's server (as the PostgreSQL variant of the unit tests), or a local one on the
// default port. Each spec makes and drops a database of its own on it.

export const POSTGRES_SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Whether a PostgreSQL server answers at `url` (a spec without one is skipped and says why). */
export async function postgresReachable(url: string = POSTGRES_SERVER_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** One statement batch on the server's own connection (create and drop a spec's database). */
export async function postgresAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
