import { useId } from "react";
import {
  CONDITION_LABELS,
  LISTING_CONDITIONS,
  type ListingCondition,
  type ListingKind,
  PRICE_TERMS_LABELS,
} from "~/server/posts/listing.shared";

/**
 * The composer's listing details (decision 0170; beyond the spec): Selling or Wanted,
 * a price with Firm / Open to offers / Free, and a condition. All optional; plain form controls
 * (radios in fieldsets with legends, a labelled input and select), so they work before scripts
 * load and read well to screen readers.
 */

export type PriceChoice = "" | "firm" | "offers" | "free";

/** What the draft holds of them (the composer's draft keeps these with the text and files). */
export interface ListingDraft {
  kind: ListingKind;
  price: string;
  terms: PriceChoice;
  condition: "" | ListingCondition;
}

export const EMPTY_LISTING_DRAFT: ListingDraft = { kind: "selling", price: "", terms: "", condition: "" };

export function isEmptyListingDraft(draft: ListingDraft): boolean {
  return draft.kind === "selling" && draft.price === "" && draft.terms === "" && draft.condition === "";
}

/** The form fields the create-post action reads (listingFormFields of server/posts/schemas.ts). */
export function appendListingDraft(form: FormData, draft: ListingDraft): void {
  if (draft.kind !== "selling") form.set("listingKind", draft.kind);
  if (draft.terms === "free") form.set("priceTerms", "free");
  else {
    if (draft.price.trim()) form.set("price", draft.price.trim());
    if (draft.terms) form.set("priceTerms", draft.terms);
  }
  if (draft.condition) form.set("condition", draft.condition);
}

const TERMS: { value: Exclude<PriceChoice, "">; label: string }[] = [
  { value: "firm", label: PRICE_TERMS_LABELS.firm },
  { value: "offers", label: PRICE_TERMS_LABELS.offers },
  { value: "free", label: "Free" },
];

const chipClass =
  "inline-flex min-h-11 cursor-pointer items-center justify-center rounded-full border border-zinc-300 bg-white px-3.5 text-sm font-semibold text-zinc-700 select-none hover:bg-zinc-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60";

/**
 * Controlled when `value` and `onChange` are given (the composers' draft); otherwise the inputs
 * hold their own values (the plain form before JavaScript).
 */
export function ListingFields({
  value,
  onChange,
  disabled = false,
}: {
  value?: ListingDraft;
  onChange?(next: ListingDraft): void;
  disabled?: boolean;
}) {
  const id = useId();
  const controlled = value !== undefined && onChange !== undefined;
  const current = value ?? EMPTY_LISTING_DRAFT;
  const set = (patch: Partial<ListingDraft>) => onChange?.({ ...current, ...patch });
  const checked = <K extends keyof ListingDraft>(key: K, option: ListingDraft[K]) =>
    controlled
      ? { checked: current[key] === option }
      : { defaultChecked: EMPTY_LISTING_DRAFT[key] === option };
  const free = controlled && current.terms === "free";

  return (
    <fieldset className="mt-3 min-w-0 rounded-2xl border border-zinc-200 px-3 pt-1 pb-3" disabled={disabled}>
      <legend className="px-1 text-sm font-semibold text-zinc-800">
        Listing details <span className="font-normal text-zinc-500">(optional)</span>
      </legend>
      <fieldset className="min-w-0">
        <legend className="sr-only">Selling or wanted</legend>
        <div className="grid grid-cols-2 gap-1 rounded-full bg-zinc-100 p-1">
          {(["selling", "wanted"] as const).map((kind) => (
            <label
              key={kind}
              className="flex min-h-10 cursor-pointer items-center justify-center rounded-full text-sm font-semibold text-zinc-600 select-none has-[:checked]:bg-white has-[:checked]:text-zinc-950 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
            >
              <input
                type="radio"
                name="listingKind"
                value={kind}
                className="sr-only"
                {...checked("kind", kind)}
                onChange={() => set({ kind })}
              />
              {kind === "selling" ? "Selling" : "Wanted"}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-3 grid grid-cols-2 gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-price`} className="text-sm font-semibold text-zinc-800">
            {current.kind === "wanted" ? "Budget" : "Price"}
          </label>
          <div className="relative">
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-[15px] text-zinc-500"
            >
              $
            </span>
            <input
              id={`${id}-price`}
              name="price"
              inputMode="decimal"
              autoComplete="off"
              maxLength={12}
              placeholder={free ? "Free" : "0"}
              disabled={free}
              aria-describedby={`${id}-price-hint`}
              {...(controlled ? { value: free ? "" : current.price } : {})}
              onChange={(event) => set({ price: event.currentTarget.value })}
              className="h-11 w-full rounded-xl border border-zinc-300 bg-white pr-3 pl-7 text-[16px] tabular-nums disabled:bg-zinc-50"
            />
          </div>
          <p id={`${id}-price-hint`} className="sr-only">
            In US dollars, like 40 or 12.50. Leave it empty for no price.
          </p>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-condition`} className="text-sm font-semibold text-zinc-800">
            Condition
          </label>
          <select
            id={`${id}-condition`}
            name="condition"
            {...(controlled ? { value: current.condition } : { defaultValue: "" })}
            onChange={(event) => set({ condition: event.currentTarget.value as ListingDraft["condition"] })}
            className="h-11 w-full rounded-xl border border-zinc-300 bg-white px-3 text-[16px]"
          >
            <option value="">Not stated</option>
            {LISTING_CONDITIONS.map((condition) => (
              <option key={condition} value={condition}>
                {CONDITION_LABELS[condition]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="mt-3 min-w-0">
        <legend className="mb-1 text-sm font-semibold text-zinc-800">Price terms</legend>
        <div className="flex flex-wrap gap-2">
          {TERMS.map((term) => (
            <label key={term.value} className={chipClass}>
              <input
                type="radio"
                name="priceTerms"
                value={term.value}
                className="sr-only"
                {...checked("terms", term.value)}
                onChange={() => set({ terms: term.value })}
                // A second click on the chosen chip clears it (terms are optional).
                onClick={() => {
                  if (controlled && current.terms === term.value) set({ terms: "" });
                }}
              />
              {term.label}
            </label>
          ))}
        </div>
      </fieldset>
    </fieldset>
  );
}
