import { useState } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import type { ToastInput } from "~/app/lib/toast";
import { MEETUP_MESSAGES, MEETUP_STATE_LABELS } from "~/server/trade/meetup-rules.shared";
import type { MeetupCardView } from "~/server/trade/meetups";
import { useChatMeetups } from "./meetup-data";
import { ProposeMeetupDialog } from "./propose-meetup";

const STATE_TONES: Record<MeetupCardView["state"], string> = {
  proposed: "bg-amber-50 text-amber-900 ring-amber-200",
  accepted: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  replaced: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  cancelled: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  past: "bg-zinc-100 text-zinc-700 ring-zinc-200",
};

/** Decision 0612: the spot's words, the time, and the address with its plain 'Open in Maps' link. */
export function MeetupDetails({ meetup, compact = false }: { meetup: MeetupCardView; compact?: boolean }) {
  const { spot } = meetup;
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm text-zinc-800">
      <p className="font-semibold text-zinc-900">
        <time dateTime={meetup.meetsAt}>{meetup.when}</time>
      </p>
      <p className="min-w-0 break-words">
        <span className="font-semibold">{spot.name}</span>
        <span className="text-zinc-600"> · {spot.kindLabel}</span>
      </p>
      <p className="min-w-0 break-words text-zinc-700">
        {spot.address}{" "}
        <a
          href={spot.mapsUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold whitespace-nowrap text-brand-700 underline"
        >
          {MEETUP_MESSAGES.openInMaps}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
      {compact ? null : (
        <>
          {spot.hours ? (
            <p className="break-words text-zinc-700">
              <span className="font-medium">Hours:</span> {spot.hours}
            </p>
          ) : null}
          {spot.rules ? (
            <p className="break-words whitespace-pre-wrap text-zinc-700">
              <span className="font-medium">Rules:</span> {spot.rules}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

/**
 * Decision 0611: a meetup's card in the conversation, drawn from its row as it is now: its state,
 * the spot and the time; the other side may Accept or Suggest another (which opens the proposal
 * dialog; sending it marks this one replaced).
 */
export function MeetupCard({
  meetupId,
  chatId,
  otherFirstName,
}: {
  meetupId: string;
  chatId: string;
  otherFirstName: string;
}) {
  const meetups = useChatMeetups();
  const accept = useFetcher<{ ok: boolean; toast?: ToastInput | null }>();
  useActionToast(accept.data?.toast);
  const [suggesting, setSuggesting] = useState(false);
  const meetup = meetups?.cards[meetupId];
  if (!meetups || !meetup) {
    return (
      <p className="rounded-2xl border border-zinc-200 px-3 py-2 text-sm text-zinc-600">
        A meetup proposal (older than this page shows).
      </p>
    );
  }
  const titleId = `meetup-${meetup.id}`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="meetup-card"
      className="flex w-[min(22rem,85vw)] flex-col gap-2 rounded-2xl border border-zinc-200 bg-white p-3 shadow-sm"
    >
      <header className="flex items-center justify-between gap-2">
        <h3 id={titleId} className="text-sm font-bold text-zinc-900">
          {meetup.own ? "You proposed a meetup" : `${otherFirstName} proposed a meetup`}
        </h3>
        <span
          className={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATE_TONES[meetup.state]}`}
        >
          {MEETUP_STATE_LABELS[meetup.state]}
        </span>
      </header>
      <MeetupDetails meetup={meetup} />
      {meetup.canAnswer ? (
        <div className="flex flex-wrap gap-2 pt-1">
          <accept.Form method="post" action={`/messages/${chatId}/meetup`}>
            <input type="hidden" name="intent" value="accept-meetup" />
            <input type="hidden" name="meetupId" value={meetup.id} />
            <Button type="submit" processing={accept.state !== "idle"} className="px-4 py-2">
              {MEETUP_MESSAGES.accept}
            </Button>
          </accept.Form>
          <Button variant="secondary" className="px-4 py-2" onClick={() => setSuggesting(true)}>
            {MEETUP_MESSAGES.suggestAnother}
          </Button>
          <ProposeMeetupDialog
            open={suggesting}
            onOpenChange={setSuggesting}
            chatId={chatId}
            meetups={meetups}
            replacesId={meetup.id}
          />
        </div>
      ) : meetup.own && meetup.state === "proposed" ? (
        <p className="text-sm text-zinc-600">Waiting for {otherFirstName} to answer.</p>
      ) : null}
    </article>
  );
}
