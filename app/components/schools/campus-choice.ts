/**
 * The one button of the Find Your School modal (spec 1 §2 'Find Your School',
 * §6; spec 2 §2 'Search'):
 * - a school-verified member, on their own campus: 'View Your Campus' (new tab);
 * - a school-verified member, another campus: 'Visit As Guest' (new tab);
 * - anyone else: 'Join Campus', to the school e-mail form for that campus when
 *   signed in, or the sign-in modal (reason 'join campus') for a visitor.
 */
export type CampusChoice =
  | { kind: "view"; label: "View Your Campus"; href: string }
  | { kind: "guest"; label: "Visit As Guest"; href: string }
  | { kind: "join"; label: "Join Campus"; to: string }
  | { kind: "sign-in"; label: "Join Campus"; to: string };

export function campusChoice(
  viewer: { schoolVerified: boolean; campusId: string } | null,
  campusId: string,
  campusUrl: string,
): CampusChoice {
  if (viewer?.schoolVerified) {
    return viewer.campusId === campusId
      ? { kind: "view", label: "View Your Campus", href: campusUrl }
      : { kind: "guest", label: "Visit As Guest", href: campusUrl };
  }
  if (viewer) {
    return {
      kind: "join",
      label: "Join Campus",
      to: `/settings/account/school_email?campus=${encodeURIComponent(campusId)}`,
    };
  }
  // `to` is the way in without JavaScript; with it, the sign-in modal opens instead.
  return { kind: "sign-in", label: "Join Campus", to: "/user_registration" };
}

/** 'Austin, TX, US': city, state and country of a hit (spec 1 §2: 'each hit shows city, state, country and name'). */
export function schoolPlace(school: { city: string | null; state: string | null; country: string }): string {
  return [school.city, school.state, school.country]
    .filter((part): part is string => Boolean(part))
    .join(", ");
}
