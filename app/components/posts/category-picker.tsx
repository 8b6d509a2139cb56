import { useState } from "react";
import { CheckIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { ALL_CATEGORIES, CATEGORY_OPTIONS, categoryLabel } from "~/server/posts/categories.shared";
import { TagIcon } from "./post-icons";

/** The check mark beside the chosen category. */
export function ChosenMark() {
  return <CheckIcon className="size-5 shrink-0 text-brand-600" strokeWidth={2.5} />;
}

export const categoryItemClass =
  "flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2.5 text-left text-[15px] text-zinc-900 hover:bg-zinc-100 aria-[current=true]:font-semibold aria-[current=true]:text-brand-700";

/**
 * spec 2 §3's categories, 'All categories' (no category) first, one button each;
 * the chosen one is marked (aria-current) and choosing closes the list.
 */
export function CategoryList({
  value,
  onChoose,
}: {
  value: string | null;
  onChoose(value: string | null): void;
}) {
  const chosen = value ?? ALL_CATEGORIES.value;
  return (
    <ul aria-label="Categories" className="-mx-2 flex flex-col">
      {CATEGORY_OPTIONS.map((option) => (
        <li key={option.value}>
          <button
            type="button"
            aria-current={chosen === option.value}
            onClick={() => onChoose(option.value === ALL_CATEGORIES.value ? null : option.value)}
            className={categoryItemClass}
          >
            {option.text}
            {chosen === option.value ? <ChosenMark /> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** spec 2 §2 'Modals': the composer's category picker — a button showing the choice, the list in a modal. */
export function CategoryPicker({
  value,
  onChange,
  disabled = false,
}: {
  value: string | null;
  onChange(value: string | null): void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        className="inline-flex min-w-0 max-w-44 items-center gap-2 rounded-full p-2 text-sm font-semibold text-brand-600 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-50 xs:max-w-56 xs:px-3"
      >
        <TagIcon className="size-6 shrink-0" />
        {value ? <span className="sr-only">Category: </span> : null}
        <span className={`truncate ${value ? "" : "sr-only xs:not-sr-only"}`}>
          {value ? categoryLabel(value) : "Category"}
        </span>
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Choose a category">
        <CategoryList
          value={value}
          onChoose={(next) => {
            onChange(next);
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
