import { useHydrated } from "~/app/lib/hydrated";
import { formatAge, formatTimestamp } from "./post-format";

/**
 * A post's age ('2h', '3d'), with the full time as a tooltip. The server and the
 * browser may disagree by a few seconds, so the text is allowed to differ at hydration.
 */
export function PostAge({ date, className }: { date: Date; className?: string }) {
  const hydrated = useHydrated();
  return (
    <time
      dateTime={date.toISOString()}
      title={formatTimestamp(date, hydrated ? undefined : "UTC")}
      suppressHydrationWarning
      className={className}
    >
      {formatAge(date, new Date(), hydrated ? undefined : "UTC")}
    </time>
  );
}

/** spec 2 §2 'Post detail' timestamp, in UTC from the server and in the reader's time once the page runs. */
export function PostTimestamp({ date, className = "" }: { date: Date; className?: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={date.toISOString()} className={className}>
      {formatTimestamp(date, hydrated ? undefined : "UTC")}
    </time>
  );
}
