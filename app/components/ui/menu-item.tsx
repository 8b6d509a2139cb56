import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

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
