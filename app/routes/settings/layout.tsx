import { Outlet } from "react-router";
import { SettingsNav } from "~/app/components/settings/settings-nav";
import type { ShellHandle } from "~/app/components/shell/shell";
import { useRootData } from "~/app/lib/root-data";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

// Settings needs the room of the right-hand widget for its two panes.
export const handle = { shell: "wide" } satisfies ShellHandle;

/**
 * spec 1 §2 'Settings': on screens wider than 1000 px the list is a side panel
 * beside the sub-page; below, /settings is the list (index route) and each
 * sub-page shows alone with a back button (SettingsPage).
 */
export default function SettingsLayout() {
  const { viewer } = useRootData();
  return (
    <div className="lg:grid lg:grid-cols-[16.5rem_minmax(0,1fr)] lg:items-start lg:gap-6">
      <div className="sticky top-20 hidden max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-2xl lg:block">
        <SettingsNav signedIn={Boolean(viewer)} />
      </div>
      <Outlet />
    </div>
  );
}
