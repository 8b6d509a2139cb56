import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { Modal } from "~/app/components/ui/modal";
import type { ToastInput } from "~/app/lib/toast";
import { formatPrice } from "~/server/posts/listing.shared";
import {
  centsToDollarsField,
  OFFER_NOTE_MAX,
  parseDollars,
  TRADE_MESSAGES,
} from "~/server/trade/offer-rules.shared";

export interface TradeActionData {
  ok: boolean;
  intent?: string;
  toast?: ToastInput | null;
}

/**
 * Decision 0601: the offer dialog (the one modal primitive): the amount in dollars, prefilled,
 * at most the price (checked here and again on the server), and an optional note. 'Make offer'
 * goes to the conversation; 'Counter' stays in it.
 */
export function OfferAmountDialog({
  open,
  onOpenChange,
  title,
  intent,
  fields,
  priceCents,
  defaultCents,
  submitLabel,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  intent: "make-offer" | "counter-offer";
  fields: Record<string, string>;
  priceCents: number | null;
  defaultCents: number;
  submitLabel: string;
}) {
  const fetcher = useFetcher<TradeActionData>();
  const [amount, setAmount] = useState(centsToDollarsField(defaultCents));
  const [error, setError] = useState<string | null>(null);
  useActionToast(fetcher.data?.toast);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onOpenChange(false);
  }, [fetcher.state, fetcher.data, onOpenChange]);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={priceCents !== null ? `Listed at ${formatPrice(priceCents)}.` : undefined}
    >
      <fetcher.Form
        method="post"
        action="/trade"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          const parsed = parseDollars(amount);
          const problem =
            "error" in parsed
              ? parsed.error
              : priceCents !== null && parsed.cents > priceCents
                ? TRADE_MESSAGES.amountOverPrice
                : null;
          setError(problem);
          if (problem) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field
          label="Your offer ($)"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={error}
          required
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="offer-note" className="text-sm font-medium text-zinc-800">
            Note (optional)
          </label>
          <textarea
            id="offer-note"
            name="note"
            maxLength={OFFER_NOTE_MAX}
            rows={2}
            className="rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}

/** Decision 0601 'Make offer' on someone else's listing that takes offers. */
export function MakeOfferButton({ postId, priceCents }: { postId: string; priceCents: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setOpen(true)} className="w-full xs:w-auto">
        {TRADE_MESSAGES.makeOffer}
      </Button>
      <OfferAmountDialog
        open={open}
        onOpenChange={setOpen}
        title={TRADE_MESSAGES.makeOffer}
        intent="make-offer"
        fields={{ postId }}
        priceCents={priceCents}
        defaultCents={priceCents}
        submitLabel="Send offer"
      />
    </>
  );
}
