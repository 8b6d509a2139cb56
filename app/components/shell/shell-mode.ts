import { useMatches } from "react-router";

/**
 * How much chrome a page wants around it. A route module opts out or in with
 * its `handle` export; the deepest route that says something wins:
 *
 *   // app/routes/auth/login.tsx: a centred card, no header, side nav, widget or bottom bar
 *   export const handle = { shell: "bare" } satisfies ShellHandle;
 *
 * - "full" (default): header, side navigation, main column, right-hand widget, bottom bar.
 * - "wide": the same without the right-hand widget, so the main column can hold
 *   two panes (settings: navigation beside the sub-page).
 * - "bare": only the skip link and <main id="main">; the page draws its own frame.
 */
export type ShellMode = "full" | "wide" | "bare";

export interface ShellHandle {
  shell: ShellMode;
}

function isShellMode(value: unknown): value is ShellMode {
  return value === "full" || value === "wide" || value === "bare";
}

/** The mode the deepest route's handle asks for, or "full". */
export function shellModeOf(handles: readonly unknown[]): ShellMode {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i];
    if (typeof handle === "object" && handle !== null && "shell" in handle && isShellMode(handle.shell)) {
      return handle.shell;
    }
  }
  return "full";
}

export function useShellMode(): ShellMode {
  return shellModeOf(useMatches().map((match) => match.handle));
}
