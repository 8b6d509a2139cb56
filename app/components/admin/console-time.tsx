/**
 * Decision 0550: times on the operator console, in UTC (the server's logs and the problems' rules
 * speak UTC), the same text on the server and in the browser.
 */
const FORMAT = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

export function formatConsoleTime(date: Date): string {
  return `${FORMAT.format(date)} UTC`;
}

export function ConsoleTime({ date, fallback = "—" }: { date: Date | null; fallback?: string }) {
  if (!date) return <span>{fallback}</span>;
  return <time dateTime={date.toISOString()}>{formatConsoleTime(date)}</time>;
}

/** '12 min', '3 h', '2 d': an age or an interval, short. */
export function shortDuration(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  if (ms < 2 * 86_400_000) return `${Math.floor(ms / 3_600_000)} h`;
  return `${Math.floor(ms / 86_400_000)} d`;
}

/** Shared look of the console's cards. */
export const CARD = "rounded-2xl border border-zinc-200 bg-white p-4 md:p-6";
