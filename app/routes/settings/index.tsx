import { useEffect } from "react";
import { useNavigate } from "react-router";
import { SettingsNav } from "~/app/components/settings/settings-nav";
import { SETTINGS_PANEL_QUERY, settingsLanding } from "~/app/components/settings/settings-nav-model";
import { pageTitle } from "~/app/components/shell/campus";
import { useRootData } from "~/app/lib/root-data";
import type { Route } from "./+types/index";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Settings", matches[0]?.loaderData?.campus) }];
}

/**
 * /settings: the list itself up to 1000 px. Wider, the list is already the side
 * panel, so this page gives way to /settings/account (members) or
 * /settings/about (spec 1 §2); the server cannot know the width, so the browser decides.
 */
export default function SettingsIndex() {
  const { viewer } = useRootData();
  const navigate = useNavigate();
  const signedIn = Boolean(viewer);

  useEffect(() => {
    const wide = window.matchMedia(SETTINGS_PANEL_QUERY);
    const follow = () => {
      if (wide.matches) navigate(settingsLanding(signedIn), { replace: true });
    };
    follow();
    wide.addEventListener("change", follow);
    return () => wide.removeEventListener("change", follow);
  }, [navigate, signedIn]);

  return (
    <>
      <div className="lg:hidden">
        <h1 className="mb-4 text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Settings</h1>
        <SettingsNav signedIn={signedIn} />
      </div>
      <div className="hidden rounded-2xl border border-zinc-200 bg-white p-7 lg:block">
        <h1 className="text-2xl font-bold tracking-tight text-zinc-900">Settings</h1>
        <p className="mt-2 text-zinc-600">Choose a page from the list.</p>
      </div>
    </>
  );
}
