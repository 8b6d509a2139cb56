import { LoadMoreList } from "~/app/components/ui/load-more-list";
import { LOG_ACTOR_WORDS } from "~/server/moderation/rules.shared";

/** One entry of /modlog as the page shows it (decision 0549). */
export interface ModerationLogRow {
  id: string;
  date: string;
  action: string;
  reasonLabel: string | null;
  targetWords: string;
  publicReason: string | null;
  actor: string;
  /** Staff only. */
  privateNote: string | null;
}

function Entry({ entry }: { entry: ModerationLogRow }) {
  return (
    <li className="px-3 py-3.5 md:px-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
        <p className="font-semibold text-zinc-900">
          {entry.action} <span className="font-normal text-zinc-600">{entry.targetWords}</span>
        </p>
        <p className="text-sm text-zinc-500">{entry.date}</p>
      </div>
      {entry.reasonLabel || entry.publicReason ? (
        <p className="mt-1 break-words text-[15px] text-zinc-800">
          {entry.reasonLabel ? <span className="font-medium">{entry.reasonLabel}</span> : null}
          {entry.reasonLabel && entry.publicReason ? ": " : null}
          {entry.publicReason}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-zinc-500">
        {entry.actor === LOG_ACTOR_WORDS.automatic ? entry.actor : `By ${entry.actor}`}
      </p>
      {entry.privateNote ? (
        <p className="mt-2 break-words rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
          <span className="font-semibold">Private note:</span> {entry.privateNote}
        </p>
      ) : null}
    </li>
  );
}

/** /modlog's entries, newest first, with 'Load more' (decision 0549). */
export function ModerationLogList({
  page,
}: {
  page: { items: ModerationLogRow[]; nextCursor: string | null };
}) {
  return (
    <LoadMoreList
      page={page}
      label="Moderation actions"
      listClassName="divide-y divide-zinc-100"
      renderItem={(entry) => <Entry key={entry.id} entry={entry} />}
      empty={
        <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
          <h2 className="text-lg font-bold text-zinc-900">Nothing to report yet</h2>
          <p className="mx-auto mt-2 max-w-sm text-[15px] text-zinc-600">
            When moderators remove a post, warn or suspend a member, or dismiss reports, it is listed here.
          </p>
        </section>
      }
    />
  );
}
