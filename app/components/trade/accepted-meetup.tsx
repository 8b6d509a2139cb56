import { MeetupDetails } from "./meetup-card";
import { useChatMeetups } from "./meetup-data";

/**
 * Decision 0613: the accepted meetup at the top of the conversation, under its header, until two
 * hours after its time: when and where, with 'Open in Maps'; the spot's hours and rules behind
 * a disclosure.
 */
export function AcceptedMeetup() {
  const meetup = useChatMeetups()?.accepted;
  if (!meetup) return null;
  return (
    <section
      aria-label="Accepted meetup"
      data-testid="accepted-meetup"
      className="border-b border-emerald-200 bg-emerald-50/60 px-4 py-2"
    >
      <p className="text-xs font-bold tracking-wide text-emerald-800 uppercase">Meetup accepted</p>
      <MeetupDetails meetup={meetup} compact />
      {meetup.spot.hours || meetup.spot.rules ? (
        <details className="mt-1 text-sm text-zinc-700">
          <summary className="cursor-pointer font-medium">Hours and rules</summary>
          {meetup.spot.hours ? <p className="mt-1 break-words">Hours: {meetup.spot.hours}</p> : null}
          {meetup.spot.rules ? (
            <p className="break-words whitespace-pre-wrap">Rules: {meetup.spot.rules}</p>
          ) : null}
        </details>
      ) : null}
    </section>
  );
}
