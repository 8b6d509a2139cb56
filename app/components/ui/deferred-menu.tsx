import type * as RadixDropdownMenu from "@radix-ui/react-dropdown-menu";
import {
  createContext,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useContext,
  useEffect,
  useState,
} from "react";
import { preloadWhenIdle } from "~/app/lib/lazy-load";

/** Radix's dropdown menu, loaded on first use (decision 0370: no page needs it to paint or hydrate). */
export type DropdownMenu = typeof RadixDropdownMenu;

let dropdownMenu: DropdownMenu | null = null;
const loadDropdownMenu = () =>
  import("@radix-ui/react-dropdown-menu").then((module) => {
    dropdownMenu = module;
    return module;
  });

/**
 * Radix is fetched when the browser is idle once a page shows a menu; asked from the first menu's
 * effect, not when this module loads, so a module that imports this one only for the server's
 * shared markup (post-card.tsx) leaves the browser's bundle (decision 0390).
 */
let preloadAsked = false;
function usePreloadDropdownMenu(): void {
  useEffect(() => {
    if (preloadAsked) return;
    preloadAsked = true;
    preloadWhenIdle(loadDropdownMenu);
  }, []);
}

const DropdownMenuContext = createContext<DropdownMenu | null>(null);

/** Radix's dropdown menu parts, for a menu's content: only ever rendered inside a `DeferredMenu`. */
export function useDropdownMenu(): DropdownMenu {
  const menu = useContext(DropdownMenuContext);
  if (!menu) throw new Error("useDropdownMenu used outside <DeferredMenu>");
  return menu;
}

/** Radix's dropdown menu once `wanted`: loads it then, unless it already has. */
function useLoadedDropdownMenu(wanted: boolean): DropdownMenu | null {
  const [menu, setMenu] = useState(dropdownMenu);
  useEffect(() => {
    if (!wanted || menu) return;
    let current = true;
    void loadDropdownMenu().then((module) => {
      if (current) setMenu(module);
    });
    return () => {
      current = false;
    };
  }, [wanted, menu]);
  return wanted ? menu : null;
}

interface DeferredMenuProps {
  /** The trigger's content (icon and label). */
  trigger: ReactNode;
  triggerClassName: string;
  /** The trigger's accessible name, when its content shows none. */
  triggerLabel?: string;
  /** The menu: a component rendering `useDropdownMenu()`'s Portal (or not) with its Content. */
  children: ReactNode;
  /** Controlled open state, when the owner needs it (e.g. to keep an overlay shown). */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

/**
 * A Radix dropdown menu that costs nothing until it is first used: until then it is a
 * plain button, and Radix itself is loaded then (or when the browser is idle). Radix's
 * providers would cost every card a render on the server and again at hydration on the
 * phone (bench/README.md), and its code every page's first load (decision 0340), for menus
 * few people open. It opens the way Radix's trigger does — on pointer down, or Enter,
 * Space or Arrow Down — and is a Radix menu from then on.
 */
export function DeferredMenu({
  trigger,
  triggerClassName,
  triggerLabel,
  children,
  open,
  onOpenChange,
}: DeferredMenuProps) {
  const [used, setUsed] = useState(false);
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  const menu = useLoadedDropdownMenu(used);
  usePreloadDropdownMenu();

  function openOnFirstUse() {
    setUsed(true);
    setOpen(true);
  }

  if (!menu) {
    return (
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded="false"
        aria-label={triggerLabel}
        className={triggerClassName}
        onPointerEnter={() => void loadDropdownMenu()}
        onFocus={() => void loadDropdownMenu()}
        onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
          if (event.button !== 0 || event.ctrlKey) return;
          event.preventDefault();
          openOnFirstUse();
        }}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          if (event.key !== "Enter" && event.key !== " " && event.key !== "ArrowDown") return;
          event.preventDefault();
          openOnFirstUse();
        }}
      >
        {trigger}
      </button>
    );
  }
  return (
    <DropdownMenuContext.Provider value={menu}>
      <menu.Root modal={false} open={isOpen} onOpenChange={setOpen}>
        <menu.Trigger aria-label={triggerLabel} className={triggerClassName}>
          {trigger}
        </menu.Trigger>
        {children}
      </menu.Root>
    </DropdownMenuContext.Provider>
  );
}
