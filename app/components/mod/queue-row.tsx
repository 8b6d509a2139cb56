import { Link } from "react-router";
import { formatAge } from "~/app/components/posts/post-format";
import type { QueueRow } from "~/server/moderation/queue";

/** A small label beside an item: Overdue (amber), Hidden (zinc), Site admins (violet). */
export function Badge({ tone, children }: { tone: "amber" | "zinc" | "violet" | "green"; children: string }) {
  const tones = {
    amber: "bg-amber-100 text-amber-900 ring-amber-600/30",
    zinc: "bg-zinc-100 text-zinc-800 ring-zinc-500/30",
    violet: "bg-violet-100 text-violet-900 ring-violet-600/30",
    green: "bg-green-50 text-green-800 ring-green-600/30",
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** One row of /mod (decision 0541): kind, excerpt, reasons with counts, reporters, weight, age, badges. */
export function QueueRowCard({
  item,
  now,
  showCampus,
}: {
  item: QueueRow;
  now: string;
  showCampus: boolean;
}) {
  const opened = new Date(item.openedAt);
  const reporters = `${item.reporters} ${item.reporters === 1 ? "reporter" : "reporters"}`;
  return (
    <li>
      <Link
        to={`/mod/items/${item.id}`}
        className="flex flex-col gap-1.5 rounded-2xl border border-zinc-200 bg-white px-4 py-3 hover:border-zinc-300 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-600 md:px-5"
      >
        <span className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold text-zinc-900">{item.kindLabel}</span>
          {item.studentName ? <span className="text-zinc-600">· {item.studentName}</span> : null}
          {showCampus ? <span className="text-zinc-600">· {item.campusName}</span> : null}
          {item.overdue ? <Badge tone="amber">Overdue</Badge> : null}
          {item.hidden ? <Badge tone="zinc">Hidden</Badge> : null}
          {item.toAdmins ? <Badge tone="violet">Site admins</Badge> : null}
          <time dateTime={item.openedAt} className="ml-auto text-zinc-600">
            {formatAge(opened, new Date(now), "UTC")}
          </time>
        </span>
        <span className="line-clamp-2 text-[15px] break-words text-zinc-800">
          {item.excerpt || "No text"}
        </span>
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-600">
          {/* Decisions 0650, 0653: an item the product opened says why where reporters' reasons go. */}
          {item.autoReason ? (
            <span className="break-words text-zinc-800" data-testid="auto-reason">
              Automatic: {item.autoReason}
            </span>
          ) : null}
          {item.reasons.map((reason) => (
            <span key={reason.reason}>
              {reason.label} <span className="font-semibold text-zinc-800">×{reason.count}</span>
            </span>
          ))}
          {item.kind === "appeal" || (item.autoReason && item.reporters === 0) ? null : (
            <span>
              {reporters} · weight {item.weight.toFixed(1)}
            </span>
          )}
          {item.decision ? <Badge tone="green">{`Decided: ${item.decision.replace("_", " ")}`}</Badge> : null}
        </span>
      </Link>
    </li>
  );
}
