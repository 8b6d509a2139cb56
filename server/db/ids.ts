/** A uuid as PostgreSQL writes it: ids are checked against it before they reach a query. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` can be a row's uuid id (a malformed one is 'not found', never a database error). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
