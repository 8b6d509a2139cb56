import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { CloseIcon } from "./icons";
import type { ModalProps } from "./modal";

/**
 * The modal's body on Radix Dialog (app/components/ui/modal.tsx loads it on first use):
 * focus is trapped inside and returns to the opener, Escape and the × close it, the
 * title labels it. At 769 px and below it is a sheet rising from the bottom edge, full
 * width; above, a centred card.
 */
export default function ModalDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  hideClose = false,
  dismissible = true,
}: ModalProps) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  // Opened from state rather than a Dialog.Trigger, Radix has no trigger to refocus:
  // remember what had focus and return there on close (WAI-ARIA dialog pattern).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay fixed inset-0 z-50 bg-zinc-950/50" />
        <Dialog.Content
          // Radix warns when a dialog has no description; an absent one is explicit here.
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
          }}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          className="modal-content fixed inset-x-0 bottom-0 z-50 flex max-h-[90dvh] w-full flex-col overflow-y-auto rounded-t-2xl bg-white px-5 pt-5 pb-[max(1.25rem,env(safe-area-inset-bottom))] shadow-2xl outline-none md:inset-x-auto md:top-1/2 md:bottom-auto md:left-1/2 md:max-w-md md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-2xl md:pb-5"
        >
          <div
            aria-hidden="true"
            className="mx-auto -mt-2 mb-3 h-1 w-10 rounded-full bg-zinc-200 md:hidden"
          />
          <div className="flex items-start gap-3">
            <Dialog.Title className="flex-1 text-lg font-bold text-zinc-900">{title}</Dialog.Title>
            {hideClose ? null : (
              <Dialog.Close
                aria-label="Close"
                className="-mt-1 -mr-2 rounded-full p-2 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <CloseIcon className="size-5" />
              </Dialog.Close>
            )}
          </div>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-zinc-600">{description}</Dialog.Description>
          ) : null}
          {children ? <div className="mt-4">{children}</div> : null}
          {footer ? (
            <div className="mt-5 flex flex-col-reverse gap-2 xs:flex-row xs:justify-end">{footer}</div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
