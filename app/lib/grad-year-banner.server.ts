import { appCookie } from "~/app/lib/cookies.server";
import { GRAD_YEAR_PATH, gradYearChoices } from "~/server/accounts/badge.shared";
import type { Viewer } from "~/server/accounts/viewer";

/**
 * Decision 0682, docs/product/student-badge.md 'No year yet': a school-verified student without a
 * class year is asked by a banner, not a wall; 'Not now' hides it in this browser. The cookie
 * names the account it was dismissed for, so another account signing in here is still asked.
 */
const dismissedCookie = appCookie("cbs_year_banner", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 365 * 24 * 60 * 60,
});

/** The class years the banner offers (by the clock), or null when it does not show. */
export async function gradYearBanner(
  request: Request,
  viewer: Pick<Viewer, "id" | "schoolVerified" | "gradYear"> | null,
  now: Date,
): Promise<number[] | null> {
  if (!viewer?.schoolVerified || viewer.gradYear !== null) return null;
  // The year page itself asks already.
  if (new URL(request.url).pathname === GRAD_YEAR_PATH) return null;
  const dismissedFor = await dismissedCookie().parse(request.headers.get("Cookie"));
  return dismissedFor === viewer.id ? null : gradYearChoices(now);
}

/** The Set-Cookie header of 'Not now'. */
export function dismissGradYearBanner(viewer: Pick<Viewer, "id">): Promise<string> {
  return dismissedCookie().serialize(viewer.id);
}
