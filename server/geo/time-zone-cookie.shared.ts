/**
 * The browser reports its IANA time zone in this cookie (app/lib/geo-gate.ts), for
 * the geo gate (spec 1 §6). Plain code: the browser bundle and the server share it.
 */
export const TIME_ZONE_COOKIE = "tz";

/** IANA names ('America/Chicago', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'UTC'). */
const timeZonePattern = /^[A-Za-z0-9_+\-/]{1,64}$/;

/** The reported time zone from a Cookie header, or null when absent or not a time zone name. */
export function timeZoneFromCookieHeader(header: string | null | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== TIME_ZONE_COOKIE) continue;
    try {
      const value = decodeURIComponent(rest.join("="));
      return timeZonePattern.test(value) ? value : null;
    } catch {
      return null;
    }
  }
  return null;
}
