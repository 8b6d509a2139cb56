import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import type { ToastInput } from "~/app/lib/toast";
import { MEETUP_MESSAGES } from "~/server/trade/meetup-rules.shared";
import type { ChatMeetups } from "~/server/trade/meetups";
import { useChatMeetups } from "./meetup-data";

interface ProposeData {
  ok: boolean;
  toast?: ToastInput | null;
  fieldError?: { field: string; message: string };
}

/**
 * Decision 0611: the proposal dialog (the one Modal): one of the campus's spots and a date and
 * time, read in the campus's zone (decision 0614) by the phone's own date-time picker. Sent, it
 * closes; a refusal shows under its field.
 */
export function ProposeMeetupDialog({
  open,
  onOpenChange,
  chatId,
  meetups,
  replacesId = null,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  chatId: string;
  meetups: ChatMeetups;
  replacesId?: string | null;
}) {
  const fetcher = useFetcher<ProposeData>();
  useActionToast(fetcher.data?.toast);
  const id = useId();
  const [sent, setSent] = useState<ProposeData | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && fetcher.data !== sent) {
      setSent(fetcher.data);
      if (fetcher.data.ok) onOpenChange(false);
    }
  }, [fetcher.state, fetcher.data, sent, onOpenChange]);
  const error = (field: string) =>
    fetcher.data?.fieldError?.field === field ? fetcher.data.fieldError.message : null;
  const spotError = error("spotId");
  const timeError = error("meetsAt");
  const noSpots = meetups.spots.length === 0;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={replacesId ? MEETUP_MESSAGES.suggestTitle : MEETUP_MESSAGES.proposeTitle}
      description={noSpots ? MEETUP_MESSAGES.noSpots : "Choose a safe spot on campus and a time."}
    >
      {noSpots ? null : (
        <fetcher.Form method="post" action={`/messages/${chatId}/meetup`} className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="propose-meetup" />
          {replacesId ? <input type="hidden" name="replacesId" value={replacesId} /> : null}
          <fieldset
            className="flex flex-col gap-2"
            aria-invalid={spotError ? true : undefined}
            aria-describedby={spotError ? `${id}-spot-error` : undefined}
          >
            <legend className="mb-1 text-sm font-medium text-zinc-800">Spot</legend>
            {meetups.spots.map((spot, index) => (
              <label
                key={spot.id}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="spotId"
                  value={spot.id}
                  required
                  defaultChecked={index === 0}
                  className="mt-1 size-4 accent-brand-600"
                />
                <span className="min-w-0 text-sm">
                  <span className="block font-semibold text-zinc-900">{spot.name}</span>
                  <span className="block text-zinc-600">{spot.kindLabel}</span>
                  <span className="block break-words text-zinc-600">{spot.address}</span>
                </span>
              </label>
            ))}
            {spotError ? (
              <p id={`${id}-spot-error`} role="alert" className="text-sm text-red-700">
                {spotError}
              </p>
            ) : null}
          </fieldset>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-time`} className="text-sm font-medium text-zinc-800">
              Date and time
            </label>
            <input
              id={`${id}-time`}
              name="meetsAt"
              type="datetime-local"
              required
              min={meetups.earliest}
              max={meetups.latest}
              aria-invalid={timeError ? true : undefined}
              aria-describedby={`${id}-time-hint${timeError ? ` ${id}-time-error` : ""}`}
              className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
            />
            <p id={`${id}-time-hint`} className="text-sm text-zinc-600">
              {meetups.timeZoneName}, within the next 30 days.
            </p>
            {timeError ? (
              <p id={`${id}-time-error`} role="alert" className="text-sm text-red-700">
                {timeError}
              </p>
            ) : null}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" processing={fetcher.state !== "idle"}>
              {MEETUP_MESSAGES.send}
            </Button>
          </div>
        </fetcher.Form>
      )}
    </Modal>
  );
}

/** Decision 0611: 'Propose meetup', beside the composer. */
export function ProposeMeetupButton({ chatId }: { chatId: string }) {
  const meetups = useChatMeetups();
  const [open, setOpen] = useState(false);
  if (!meetups) return null;
  return (
    <div className="flex justify-end border-t border-zinc-200 px-3 pt-2">
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-full border border-zinc-300 px-3 py-1.5 text-sm font-semibold text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {MEETUP_MESSAGES.proposeButton}
      </button>
      <ProposeMeetupDialog open={open} onOpenChange={setOpen} chatId={chatId} meetups={meetups} />
    </div>
  );
}
