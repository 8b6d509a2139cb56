/**
 * PostgreSQL's refusals the domain functions turn into their own errors (issue 10 §3: one
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
