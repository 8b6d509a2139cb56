import { Link, NavLink, Outlet, useParams } from "react-router";
import { amountText, formatTimeLeft, STATUS_TONE } from "~/app/components/ads/ad-format";
import { pageTitle } from "~/app/components/shell/campus";
import { BackButton } from "~/app/components/ui/back-button";
import { buttonClass } from "~/app/components/ui/button";
import { requireUser } from "~/app/lib/viewer.server";
import { listOwnAds } from "~/server/ads/views";
import type { Route } from "./+types/ads";

export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Manage Ads", matches[0]?.loaderData?.campus) }];
}

/** spec 2 §2 '/ads (auth only)': the viewer's ads, newest first (spec 2 §7 'User ads'). */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  return { ads: await listOwnAds(args.context.app, viewer) };
}

/**
 * spec 2 §2 Ads: a list on phones, or list and detail side by side above 1000 px. With an ad
 * chosen, phones show only its detail (/ads/{adID}); without, only the list.
 */
export default function AdsLayout({ loaderData }: Route.ComponentProps) {
  const { adId } = useParams();
  const { ads } = loaderData;
  return (
    <div className="flex flex-col gap-3">
      <div className={`items-center gap-2 ${adId ? "hidden lg:flex" : "flex"}`}>
        <BackButton />
        <h1 className="text-xl font-bold tracking-tight text-zinc-900">Manage Ads</h1>
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-[14rem_minmax(0,1fr)] xl:grid-cols-[16rem_minmax(0,1fr)]">
        <section aria-label="Your ads" className={adId ? "hidden lg:block" : "block"}>
          {ads.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
              <h2 className="text-lg font-bold text-zinc-900">No Ads</h2>
              <p className="mt-1 text-sm text-zinc-600">Boost a post to reach more students on campus.</p>
              <Link to="/home" className={buttonClass("secondary", "mt-5")}>
                Go To Feed
              </Link>
            </div>
          ) : (
            <ul className="flex flex-col gap-2">
              {ads.map((ad) => (
                <li key={ad.id}>
                  <NavLink
                    to={`/ads/${ad.id}`}
                    className={({ isActive }) =>
                      `block rounded-2xl border bg-white p-4 hover:border-zinc-300 ${isActive ? "border-brand-600 ring-1 ring-brand-600" : "border-zinc-200"}`
                    }
                  >
                    <div className="flex items-center justify-between gap-2">
                      <p className="min-w-0 truncate font-semibold text-zinc-900">
                        {ad.title || ad.postText || "Untitled ad"}
                      </p>
                      <span
                        className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATUS_TONE[ad.status] ?? STATUS_TONE.checkout}`}
                      >
                        {ad.statusLabel}
                      </span>
                    </div>
                    <p className="mt-1 text-sm text-zinc-600">
                      {amountText(ad)} · {ad.statsHidden ? "--" : formatTimeLeft(ad.timeLeftMs)}
                    </p>
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className={adId ? "block" : "hidden lg:block"}>
          <Outlet />
        </div>
      </div>
    </div>
  );
}
