import type { ReactNode } from "react";
import { MoreIcon } from "~/app/components/ui/icons";
import { DeferredMenu, useDropdownMenu } from "./deferred-menu";

/** One row of a dropdown menu (a post's ⋯ menu, a media tile's menu, a profile's actions): icon, label, 44 px tall. */
export function MenuItem({
  icon,
  onSelect,
  danger = false,
  children,
}: {
  icon: ReactNode;
  onSelect(): void;
  /** Delete and other actions that cannot be undone. */
  danger?: boolean;
  children: ReactNode;
}) {
  const DropdownMenu = useDropdownMenu();
  return (
    <DropdownMenu.Item
      className={`flex min-h-11 w-full cursor-pointer items-center gap-3 rounded-xl px-3 text-[15px] font-medium outline-none select-none data-[highlighted]:bg-zinc-100 data-[highlighted]:text-zinc-950 ${danger ? "text-red-700" : "text-zinc-800"}`}
      onSelect={onSelect}
    >
      <span className={danger ? "text-red-600" : "text-zinc-500"}>{icon}</span>
      {children}
    </DropdownMenu.Item>
  );
}

/** A `DeferredMenu`'s panel of `MenuItem`s: portalled, aligned to the trigger's end. */
export function MenuContent({
  className,
  sideOffset,
  children,
}: {
  /** The menu's width. */
  className: string;
  sideOffset: number;
  children: ReactNode;
}) {
  const DropdownMenu = useDropdownMenu();
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align="end"
        sideOffset={sideOffset}
        collisionPadding={12}
        className={`menu-content z-50 rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl ${className}`}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

/**
 * A ⋯ menu (a post's, a profile's): the trigger with its accessible name, and the menu below it,
 * aligned to its end and not modal (the page behind stays usable).
 */
export function MoreOptionsMenu({
  label,
  triggerClassName,
  contentClassName,
  sideOffset,
  children,
}: {
  label: string;
  triggerClassName: string;
  /** The menu's width. */
  contentClassName: string;
  sideOffset: number;
  children: ReactNode;
}) {
  return (
    <DeferredMenu
      triggerLabel={label}
      triggerClassName={triggerClassName}
      trigger={<MoreIcon className="size-5" />}
    >
      <MenuContent className={contentClassName} sideOffset={sideOffset}>
        {children}
      </MenuContent>
    </DeferredMenu>
  );
}
