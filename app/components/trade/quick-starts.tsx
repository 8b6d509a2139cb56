import { QUICK_STARTS } from "~/server/trade/offer-rules.shared";

/**
 * Decision 0605: a conversation opened from a listing offers three one-tap first messages; a tap
 * sends it as typed (with the listing, as the composer would).
 */
export function QuickStarts({ onPick, disabled }: { onPick(text: string): void; disabled?: boolean }) {
  return (
    <fieldset className="mb-2 flex flex-wrap gap-2">
      <legend className="sr-only">Quick messages</legend>
      {QUICK_STARTS.map((text) => (
        <button
          key={text}
          type="button"
          disabled={disabled}
          onClick={() => onPick(text)}
          className="rounded-full border border-brand-600/40 bg-white px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
        >
          {text}
        </button>
      ))}
    </fieldset>
  );
}
