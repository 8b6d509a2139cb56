import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { formatAge } from "~/app/components/posts/post-format";
import { Avatar } from "~/app/components/ui/avatar";
import type { ModerationItemView } from "~/server/moderation/item-view";
import { Badge } from "./queue-row";

export function Panel({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-zinc-200 bg-white p-4 md:p-5">
      <h2 id={id} className="text-base font-bold text-zinc-900">
        {title}
      </h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

const day = (iso: string) => new Date(iso).toUTCString().slice(5, 16);

/** The content as its author wrote it (hidden or removed included), with its photos (decision 0541). */
export function ItemContentPanel({ view }: { view: ModerationItemView }) {
  const { content, appeal } = view;
  return (
    <>
      {appeal ? (
        <Panel title="Appeal" id="appeal-title">
          <p className="text-sm text-zinc-600">
            {`Strike: ${appeal.strike.action} · ${appeal.strike.reasonLabel} · ${day(appeal.strike.createdAt)}`}
          </p>
          <p className="mt-1 text-sm text-zinc-800">{`Reason given: ${appeal.strike.publicReason}`}</p>
          <blockquote className="mt-3 border-l-4 border-zinc-300 pl-3 text-[15px] break-words whitespace-pre-wrap text-zinc-900">
            {appeal.text}
          </blockquote>
        </Panel>
      ) : null}
      <Panel title={appeal ? "What the strike was about" : "Reported content"} id="content-title">
        {content.kind === "post" || content.kind === "comment" ? (
          <div className="flex flex-col gap-2">
            <p className="flex flex-wrap gap-2 text-sm text-zinc-600">
              <span>{content.kind === "comment" ? "Comment" : "Listing"}</span>
              {content.category ? <span>· {content.category}</span> : null}
              {content.priceCents !== null ? <span>· ${(content.priceCents / 100).toFixed(2)}</span> : null}
              {content.moderationState === "removed" ? <Badge tone="zinc">Removed</Badge> : null}
              {content.moderationState === "hidden" ? <Badge tone="zinc">Hidden</Badge> : null}
            </p>
            <p className="text-[15px] break-words whitespace-pre-wrap text-zinc-900">
              {content.text || "No text"}
            </p>
            {content.photos.length > 0 ? (
              <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="Photos">
                {content.photos.map((photo) => (
                  <li key={photo.url}>
                    {photo.kind === "image" ? (
                      <a href={photo.url} target="_blank" rel="noreferrer">
                        <img
                          src={photo.thumbUrl ?? photo.url}
                          alt="Attached to the reported post"
                          className="aspect-square w-full rounded-lg object-cover"
                        />
                      </a>
                    ) : (
                      // biome-ignore lint/a11y/useMediaCaption: a student's video has no captions.
                      <video src={photo.url} controls className="aspect-square w-full rounded-lg bg-black" />
                    )}
                  </li>
                ))}
              </ul>
            ) : null}
            {content.rootId ? (
              <Link to={`/post/${content.rootId}`} className="text-sm text-brand-700 hover:underline">
                The post it was written on
              </Link>
            ) : null}
          </div>
        ) : content.kind === "message" ? (
          <div>
            <p className="text-sm text-zinc-600">
              The reported message and the 10 before it, as stored with the report.
              {content.removed ? " The message is removed." : ""}
            </p>
            <ol className="mt-2 flex flex-col gap-1.5">
              {(content.snapshot?.messages ?? []).map((message) => (
                <li
                  key={message.id}
                  className={`rounded-lg px-3 py-2 text-sm ${message.id === content.reportedId ? "bg-amber-50 ring-1 ring-amber-300" : "bg-zinc-50"}`}
                >
                  <span className="font-semibold">{message.senderName}</span>
                  <span className="text-zinc-600"> · {day(message.createdAt)}</span>
                  <p className="break-words whitespace-pre-wrap">
                    {message.text || (message.hasPhoto ? "Photo" : "")}
                  </p>
                </li>
              ))}
            </ol>
          </div>
        ) : content.kind === "review" ? (
          <div className="flex flex-col gap-2">
            <p className="flex flex-wrap gap-2 text-sm text-zinc-600">
              <span>{`Review of the ${content.subjectRole} · ${content.stars} of 5 stars`}</span>
              {content.removed ? <Badge tone="zinc">Removed</Badge> : null}
            </p>
            <p className="text-[15px] break-words whitespace-pre-wrap text-zinc-900">
              {content.text || "No text"}
            </p>
            {content.reply ? (
              <p className="text-sm break-words whitespace-pre-wrap text-zinc-700">{`Reply: ${content.reply}`}</p>
            ) : null}
          </div>
        ) : content.kind === "user" ? (
          <div className="flex items-start gap-3">
            <Avatar person={{ img: content.img, firstName: content.name, lastName: "" }} size="md" />
            <div className="min-w-0">
              <p className="font-semibold">{content.name}</p>
              <Link to={`/${content.username}`} className="text-sm text-brand-700 hover:underline">
                @{content.username}
              </Link>
              {content.bio ? (
                <p className="mt-1 text-[15px] break-words whitespace-pre-wrap">{content.bio}</p>
              ) : null}
            </div>
          </div>
        ) : (
          <p className="text-sm text-zinc-600">The content is gone: its author deleted it.</p>
        )}
      </Panel>
    </>
  );
}

/** The reports grouped by reason, then each with its reporter and comment (staff only, decision 0541). */
export function ReportsPanel({ view }: { view: ModerationItemView }) {
  const now = new Date(view.now);
  return (
    <Panel title={`Reports (${view.reports.length})`} id="reports-title">
      {/* Decisions 0650, 0653: an item the product opened itself says why, where reporters' reasons go. */}
      {view.item.autoReason ? (
        <p className="mb-2 text-sm break-words text-zinc-800" data-testid="auto-reason">
          <span className="font-semibold">Automatic:</span> {view.item.autoReason}
        </p>
      ) : null}
      <p className="flex flex-wrap gap-3 text-sm text-zinc-700">
        {view.reasonCounts.map((reason) => (
          <span key={reason.reason}>
            {reason.label} <span className="font-semibold">×{reason.count}</span>
          </span>
        ))}
      </p>
      <ul className={view.reports.length > 0 ? "mt-3 divide-y divide-zinc-100" : "hidden"}>
        {view.reports.map((report) => (
          <li key={report.id} className="py-2 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <Link to={`/${report.reporter.username}`} className="font-semibold hover:underline">
                {report.reporter.name}
              </Link>
              <span className="text-zinc-600">{report.reasonLabel}</span>
              <time dateTime={report.createdAt} className="text-zinc-600">
                · {formatAge(new Date(report.createdAt), now, "UTC")}
              </time>
              {report.outcome ? <Badge tone="zinc">{report.outcome}</Badge> : null}
              {report.reporter.muted ? <Badge tone="zinc">Muted</Badge> : null}
              {firstOfReporter(view, report) ? <MuteReporterForm reporter={report.reporter} /> : null}
            </p>
            {report.comment ? (
              <p className="mt-1 break-words whitespace-pre-wrap text-zinc-800">{report.comment}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** The author's record: account age, verification, strikes and removed items, suspension (decision 0541). */
export function AuthorRecordPanel({ view }: { view: ModerationItemView }) {
  const author = view.author;
  if (!author) return null;
  return (
    <Panel title="The student's record" id="record-title">
      <div className="flex items-center gap-3">
        <Avatar person={{ img: author.img, firstName: author.name, lastName: "" }} size="md" />
        <div className="min-w-0">
          <Link to={`/${author.username}`} className="block truncate font-semibold hover:underline">
            {author.name}
          </Link>
          <span className="block truncate text-sm text-zinc-600">{author.email}</span>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-600">Joined</dt>
        <dd>{`${day(author.joinedAt)} (${formatAge(new Date(author.joinedAt), new Date(view.now), "UTC")})`}</dd>
        <dt className="text-zinc-600">E-mail</dt>
        <dd>{author.verified ? "Verified" : "Not verified"}</dd>
        <dt className="text-zinc-600">School</dt>
        <dd>{author.schoolVerified ? "Verified" : "Not verified"}</dd>
        <dt className="text-zinc-600">Suspended</dt>
        <dd>
          {author.suspendedUntil
            ? new Date(author.suspendedUntil).getUTCFullYear() >= 9999
              ? "Until lifted"
              : `Until ${new Date(author.suspendedUntil).toUTCString()}`
            : "No"}
        </dd>
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-zinc-900">Strikes ({author.strikes.length})</h3>
      {author.strikes.length === 0 ? (
        <p className="text-sm text-zinc-600">None.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1.5 text-sm">
          {author.strikes.map((strike) => (
            <li key={strike.id} className={strike.overruled ? "text-zinc-500 line-through" : undefined}>
              <span className="font-semibold capitalize">{strike.action}</span>
              {` · ${strike.reasonLabel} · ${day(strike.createdAt)}${strike.overruled ? " · overruled" : ""}`}
              <span className="block break-words text-zinc-700">{strike.publicReason}</span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-semibold text-zinc-900">Removed items ({author.removed.length})</h3>
      {author.removed.length === 0 ? (
        <p className="text-sm text-zinc-600">None.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1 text-sm">
          {author.removed.map((removed) => (
            <li key={removed.id} className="break-words">
              <span className="capitalize">{removed.kind}</span>: {removed.excerpt || "No text"}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** The first report of its reporter on the item: each reporter's Mute button shows once. */
function firstOfReporter(view: ModerationItemView, report: ModerationItemView["reports"][number]): boolean {
  return view.reports.find((other) => other.reporter.id === report.reporter.id) === report;
}

/**
 * Decision 0542: staff mute a student who reports in bad faith (their reports weigh 0) or unmute
 * them. The student is not told; the log keeps it, for staff only.
 */
function MuteReporterForm({ reporter }: { reporter: ModerationItemView["reports"][number]["reporter"] }) {
  return (
    <Form method="post" className="ml-auto">
      <input type="hidden" name="intent" value={reporter.muted ? "unmute-reporter" : "mute-reporter"} />
      <input type="hidden" name="reporterId" value={reporter.id} />
      <button
        type="submit"
        className="rounded-full border border-zinc-300 px-2.5 py-1 text-xs font-semibold text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label={`${reporter.muted ? "Unmute" : "Mute"} reports from ${reporter.name}`}
      >
        {reporter.muted ? "Unmute reports" : "Mute reports"}
      </button>
    </Form>
  );
}
