import { useEffect, useRef, useState } from "react";
import { useRootData } from "~/app/lib/root-data";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { CheckIcon, InstagramIcon, LinkIcon, MailIcon } from "./icons";
import { Modal } from "./modal";
import { useToast } from "./toaster";

/** spec 1 §9 / spec 2 §9: copy indicators reset after about one second. */
export const COPIED_INDICATOR_MS = 1000;

/** The e-mail option: a mailto link with the page in the body, so any mail app can send it. */
export function shareMailto(url: string, subject: string): string {
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(url)}`;
}

interface ShareModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The absolute address to share. */
  url: string;
  /** Subject line of the e-mail option. */
  subject?: string;
}

const optionClass =
  "flex w-full items-center gap-4 rounded-xl px-3 py-3 text-left font-medium text-zinc-900 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-600";
const optionIconClass = "flex size-10 shrink-0 items-center justify-center rounded-full";

/** The Share modal (spec 1 §2 'Modals'): Email, Instagram, Copy link → 'Copied to clipboard'. */
export function ShareModal({
  open,
  onOpenChange,
  url,
  subject = "Check this out on Campus Buy Sell",
}: ShareModalProps) {
  const { viewer } = useRootData();
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      toast.show({ message: SOMETHING_WENT_WRONG, type: "danger" });
      return;
    }
    setCopied(true);
    // spec 1 §8 'Copied to clipboard': an okay toast for members, a success toast for visitors.
    toast.show({ message: "Copied to clipboard", type: viewer ? "okay" : "success" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Share">
      <ul className="-mx-2 flex flex-col gap-1">
        <li>
          <a href={shareMailto(url, subject)} className={optionClass}>
            <span className={`${optionIconClass} bg-sky-100 text-sky-700`}>
              <MailIcon className="size-5" />
            </span>
            Email
          </a>
        </li>
        <li>
          <a
            href="https://www.instagram.com/"
            target="_blank"
            rel="noopener noreferrer"
            className={optionClass}
          >
            <span className={`${optionIconClass} bg-pink-100 text-pink-700`}>
              <InstagramIcon className="size-5" />
            </span>
            Instagram
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        <li>
          <button type="button" onClick={copyLink} className={optionClass}>
            <span
              className={`${optionIconClass} ${copied ? "bg-emerald-100 text-emerald-700" : "bg-zinc-100 text-zinc-700"}`}
            >
              {copied ? <CheckIcon className="size-5" /> : <LinkIcon className="size-5" />}
            </span>
            <span className="flex min-w-0 flex-col">
              <span aria-live="polite">{copied ? "Copied" : "Copy link"}</span>
              <span className="truncate text-xs font-normal text-zinc-500">{url}</span>
            </span>
          </button>
        </li>
      </ul>
    </Modal>
  );
}
