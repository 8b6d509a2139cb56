import type { ReactNode } from "react";
import { hydratedLater } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import { Header } from "./header";
import { unreadCounts } from "./nav-model";
import { useShellMode } from "./shell-mode";

export type { ShellHandle, ShellMode } from "./shell-mode";

// Decision 0370: what a phone does not show (the side navigation, the right-hand
// widget), shows only to some (the banners) or needs only on a tap (the bottom bar, whose links
// work before) hydrates from chunks of its own.
const Banners = hydratedLater(() => import("./banners").then((module) => module.Banners));
const SideNav = hydratedLater(() => import("./side-nav").then((module) => module.SideNav));
const RightWidget = hydratedLater(() => import("./right-widget").then((module) => module.RightWidget));
const BottomBar = hydratedLater(() => import("./bottom-bar").then((module) => module.BottomBar));

function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-full bg-white px-4 py-2 font-semibold text-zinc-900 shadow-lg ring-2 ring-brand-600 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60]"
    >
      Skip to content
    </a>
  );
}

/**
 * The page frame (spec 1 §2 'Shell and layout', breakpoints of spec 1 §9):
 *
 * - header: campus logo and name, search box, profile dropdown (all widths);
 * - left navigation above 769 px, labelled above 1000 px, an icon rail below;
 * - main column with the banners, then the page;
 * - right-hand widget ('About This Group', or 'Contact Us' on the generic
 *   instance) above 1170 px;
 * - bottom tab bar at 769 px and below.
 *
 * A route chooses less chrome with its `handle` (see ./shell-mode.ts):
 *
 *   import type { ShellHandle } from "~/app/components/shell/shell";
 *   export const handle = { shell: "bare" } satisfies ShellHandle; // auth pages: a centred card
 *   export const handle = { shell: "wide" } satisfies ShellHandle; // no right-hand widget (settings)
 */
export function Shell({ children }: { children: ReactNode }) {
  const mode = useShellMode();
  const root = useRootData();
  const unread = unreadCounts(root);

  if (mode === "bare") {
    return (
      <>
        <SkipLink />
        <main id="main" tabIndex={-1} className="min-h-dvh outline-none">
          {children}
        </main>
      </>
    );
  }

  return (
    <>
      <SkipLink />
      <Header />
      <div className="mx-auto flex w-full max-w-[1280px]">
        <SideNav unread={unread} />
        <main
          id="main"
          tabIndex={-1}
          className="min-w-0 flex-1 px-3 pt-3 pb-[calc(5.5rem+env(safe-area-inset-bottom))] outline-none sm:px-4 md:pt-4 md:pb-12"
        >
          <div className={`mx-auto w-full ${mode === "wide" ? "max-w-[960px]" : "max-w-[600px]"}`}>
            <Banners />
            {children}
          </div>
        </main>
        {mode === "full" ? <RightWidget /> : null}
      </div>
      <BottomBar unread={unread} />
    </>
  );
}
