import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { type KeyboardEvent, type PointerEvent, type ReactNode, useState } from "react";

interface DeferredMenuProps {
  /** The trigger's content (icon and label). */
  trigger: ReactNode;
  triggerClassName: string;
  /** The menu: a DropdownMenu.Portal with its Content. */
  children: ReactNode;
  /** Controlled open state, when the owner needs it (e.g. to keep an overlay shown). */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

/**
 * A Radix dropdown menu for controls repeated down a list (each post card's Share,
 * each media tile's menu). Until it is first used it is a plain button: Radix's
 * providers would cost every card a render on the server and again at hydration on
 * the phone (bench/README.md), for a menu few people open. It opens the way Radix's
 * trigger does — on pointer down, or Enter, Space or Arrow Down — and is a Radix menu
 * from then on.
 */
export function DeferredMenu({ trigger, triggerClassName, children, open, onOpenChange }: DeferredMenuProps) {
  const [mounted, setMounted] = useState(false);
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;

  function mountOpen() {
    setMounted(true);
    setOpen(true);
  }

  if (!mounted) {
    return (
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded="false"
        className={triggerClassName}
        onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
          if (event.button !== 0 || event.ctrlKey) return;
          event.preventDefault();
          mountOpen();
        }}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          if (event.key !== "Enter" && event.key !== " " && event.key !== "ArrowDown") return;
          event.preventDefault();
          mountOpen();
        }}
      >
        {trigger}
      </button>
    );
  }
  return (
    <DropdownMenu.Root modal={false} open={isOpen} onOpenChange={setOpen}>
      <DropdownMenu.Trigger className={triggerClassName}>{trigger}</DropdownMenu.Trigger>
      {children}
    </DropdownMenu.Root>
  );
}
