// Where the composers lead (spec 2 §2 'Mobile: /create/post?goBack={page}', spec 1 §2
// 'Profile set-up wizard' origins). Pure, shared by the routes and the components.

/** spec 2 §2: the pages the full-page composer is opened from, and returns to. */
export const COMPOSER_GO_BACK = ["home", "detail", "profile"] as const;
export type ComposerGoBack = (typeof COMPOSER_GO_BACK)[number];

export function parseGoBack(value: string | null | undefined): ComposerGoBack {
  return COMPOSER_GO_BACK.find((page) => page === value) ?? "home";
}

/** The goBack of the page the composer is opened from: a post or media page is 'detail'. */
export function goBackFromPath(pathname: string): ComposerGoBack {
  if (pathname.startsWith("/post/") || pathname.startsWith("/media/")) return "detail";
  if (pathname === "/profile" || pathname.startsWith("/profile/")) return "profile";
  return "home";
}

/** spec 2 §2: the full-page composer of narrow screens, e.g. /create/post?goBack=home. */
export function createPostHref(goBack: ComposerGoBack, category?: string | null): string {
  const query = new URLSearchParams({ goBack });
  if (category) query.set("category", category);
  return `/create/post?${query}`;
}

/** The full-page category picker, returning to the composer with the choice. */
export function createCategoriesHref(goBack: ComposerGoBack, category: string | null): string {
  const query = new URLSearchParams({ goBack });
  if (category) query.set("category", category);
  return `/create/categories?${query}`;
}

/** spec 2 §2: the full-page comment composer of narrow screens. */
export function createCommentHref(postId: string): string {
  return `/create/comment/${encodeURIComponent(postId)}`;
}

/**
 * Where Back and Done lead from the full-page composer: home → /home, profile →
 * /profile; detail → null, meaning the page it came from (the navigation memory).
 */
export function goBackTarget(goBack: ComposerGoBack): string | null {
  if (goBack === "home") return "/home";
  if (goBack === "profile") return "/profile";
  return null;
}

/** spec 1 §2: the set-up wizard's origin when posting is what sent the member there. */
export function setUpOriginFor(goBack: ComposerGoBack): string {
  return `create_${goBack}`;
}

export function setUpHrefFor(origin: string, postId?: string | null): string {
  const query = new URLSearchParams({ goBack: origin });
  if (postId) query.set("postId", postId);
  return `/profile/set-up?${query}`;
}

/** The page that verifies the school (spec 1 §2 'Join your campus'; on the generic instance, Find Your School). */
export function schoolPromptHref(campusId: string | null, generic: boolean): string {
  if (generic) return "/search_schools";
  return campusId
    ? `/settings/account/school_email?campus=${encodeURIComponent(campusId)}`
    : "/settings/account/school_email";
}

/** The page each participation refusal leads to (spec 1 §6, spec 2 §5): the prompts' links without JavaScript. */
export function refusalHref(
  refusal: { kind: "sign-in" | "verify-email" | "verify-school" | "profile-incomplete" },
  where: { campusId: string | null; generic: boolean; setUpOrigin: string; postId?: string | null },
): string {
  switch (refusal.kind) {
    case "sign-in":
      return "/user_registration";
    case "verify-email":
      return "/verify";
    case "verify-school":
      return schoolPromptHref(where.campusId, where.generic);
    case "profile-incomplete":
      return setUpHrefFor(where.setUpOrigin, where.postId);
  }
}
