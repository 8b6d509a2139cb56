import type { Queryable } from "./client";

/**
 * Prepared statements any area may run (decision 0300: out of server/posts/feed.ts into the
 * database layer). A statement is built once per database (or transaction) and name, and
 * PostgreSQL parses and plans it once per connection: for the hot lists, building and
 * planning cost more than running (bench/README.md).
 */

/** What Drizzle's `.prepare(name)` returns, as far as running it goes. */
export interface PreparedStatement {
  execute(values: object): Promise<unknown>;
}

const statements = new WeakMap<Queryable, Map<string, PreparedStatement>>();

/** A query Drizzle can prepare under a name (any select, insert, update or delete builder). */
export interface PreparableQuery {
  prepare(name: string): unknown;
}

/**
 * The statement named `name` on `db`, prepared from the query `build` gives the first time it is
 * asked for. One name must always be built from one query shape: the name is PostgreSQL's too.
 */
export function preparedStatement(
  db: Queryable,
  name: string,
  build: () => PreparableQuery,
): PreparedStatement {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name);
  if (!statement) {
    statement = build().prepare(name) as PreparedStatement;
    byName.set(name, statement);
  }
  return statement;
}
