import { lazy, type ReactNode, Suspense } from "react";
import { preloadWhenIdle, useOnceTrue } from "~/app/lib/lazy-load";

export interface ModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Names the dialog for screen readers (aria-labelledby) and heads it visually. */
  title: string;
  /** Optional sentence under the title, wired as the dialog's aria-describedby. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom (e.g. 'Discard' / 'Keep Writing'). */
  footer?: ReactNode;
  /** Hides the × button for dialogs that must be answered (e.g. 'Uploading Post...'). */
  hideClose?: boolean;
  /** Blocks Escape and outside clicks while something runs that must not be interrupted. */
  dismissible?: boolean;
}

// Decision 0340: Radix Dialog is not part of a page's first load; it comes when the browser is
// idle, or when a modal first opens, whichever is sooner.
const loadModalDialog = () => import("./modal-dialog");
const ModalDialog = lazy(loadModalDialog);
preloadWhenIdle(loadModalDialog);

/**
 * The one modal primitive (docs/architecture.md 'One way to do each thing'), on
 * Radix Dialog (./modal-dialog.tsx). A closed modal renders nothing, so a page
 * whose modals are all closed needs none of Radix to paint or hydrate.
 */
export function Modal(props: ModalProps) {
  // Once opened it stays mounted, so closing returns focus to the opener as Radix does.
  if (!useOnceTrue(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
