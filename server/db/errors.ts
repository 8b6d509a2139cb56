/**
 * PostgreSQL's refusals the domain functions turn into their own errors (decision 0150: one
 * module under server/db/ for every area). Drizzle wraps the driver's error, so each check
 * walks the `cause` chain; both drivers (PGlite, node-postgres) put the SQLSTATE in `code`.
 */

function* causes(error: unknown): Generator<Error & { code?: unknown; constraint?: unknown }> {
  for (let current: unknown = error; current instanceof Error; current = current.cause) yield current;
}

/** SQLSTATE 23505 on one unique index or constraint: the value was taken meanwhile. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (const current of causes(error)) {
    if (current.code === "23505")
      return current.constraint === constraint || current.message.includes(constraint);
  }
  return false;
}

/** SQLSTATE 23503: the row a write refers to was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  for (const current of causes(error)) {
    if (current.code === "23503") return true;
  }
  return false;
}

/**
 * Decision 0470: the network errors of a database that does not answer (stopped, restarting,
 * unreachable), as node-postgres reports them in `code`.
 */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is going away or not yet back: class 08 (connection exception),
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, in
 * recovery), 53300 too many connections.
 */
function isUnavailableState(code: string): boolean {
  return (
    code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300"
  );
}

/**
 * node-postgres's own errors carry no code: a connection the server dropped, a pool's connect
 * timeout (db/client.ts sets one), a query on a pool or client that was closed; PGlite's a
 * closed instance.
 */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is clos(ed|ing))/;

/**
 * Decision 0470: whether `error` says the database cannot be reached at the moment, rather than that
 * the query was wrong. Such a failure is the site's, briefly: every answer maps it ONCE to a 503
 * with Retry-After (server/errors.shared.ts describeFailure, app/entry.server.tsx, server/http/middleware/final-error.ts),
 * never to a 500; decision 0470.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of causes(error)) {
    const code = typeof current.code === "string" ? current.code : "";
    if (UNREACHABLE_CODES.has(code) || isUnavailableState(code)) return true;
    if (UNAVAILABLE_MESSAGE.test(current.message)) return true;
  }
  return false;
}
