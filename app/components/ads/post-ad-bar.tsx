import { useRef } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import { useViewTracking } from "~/app/lib/analytics";
import { ownerBoostButton } from "~/server/ads/sponsored.shared";
import type { AdStatus } from "~/server/db/schema/ads";

/**
 * spec 2 §4 'Owner post buttons': 'Boost for $5' when no ad; 'Boost Again' when the latest ad
 * is stopped or completed; 'View Analytics' otherwise. 'Boosted' for an active ad (everyone),
 * 'Ad Paused' to the owner. A boosted post's page counts a view (decision 0273).
 */
export function PostAdBar({
  postId,
  own,
  boostable,
  state,
}: {
  postId: string;
  own: boolean;
  /** A top-level post (not a comment, not a 'new user' banner). */
  boostable: boolean;
  state: {
    boosted: boolean;
    latest: { id: string; status: AdStatus } | null;
    analyticsToken: string | null;
  };
}) {
  const ref = useRef<HTMLDivElement>(null);
  useViewTracking(ref, postId, state.analyticsToken, state.boosted && !own);
  const button = ownerBoostButton(state.latest);
  const paused = own && state.latest?.status === "paused";
  if (!state.boosted && !paused && !(own && boostable)) return <div ref={ref} />;
  return (
    <div ref={ref} className="mt-2 flex flex-wrap items-center gap-2 border-t border-zinc-100 pt-3 pb-1">
      {state.boosted ? (
        <span className="rounded-full bg-green-50 px-2.5 py-0.5 text-xs font-semibold text-green-800 ring-1 ring-green-600/30">
          Boosted
        </span>
      ) : null}
      {paused ? (
        <span className="rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-600/30">
          Ad Paused
        </span>
      ) : null}
      {own && boostable ? (
        <span className="ml-auto">
          {button === "analytics" && state.latest ? (
            <Link to={`/ads/${state.latest.id}`} className={buttonClass("secondary", "h-9")}>
              View Analytics
            </Link>
          ) : (
            <Link to={`/post/${postId}/boost`} className={buttonClass("primary", "h-9")}>
              {button === "boost-again" ? "Boost Again" : "Boost for $5"}
            </Link>
          )}
        </span>
      ) : null}
    </div>
  );
}
