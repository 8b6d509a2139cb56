import campusList from "../campuses/campuses.json";

// The one list of usernames nobody may hold (decision 0125). Profiles live at
// /{username} (spec 1 §2), after every page of the route table, so a user named like a page is
// hidden behind it; one named like the staff or a campus looks official. Pure data: the sign-up
// paths, the username change and the database's CHECK constraint (server/db/schema/auth.ts) all
// read it, and reserved-usernames.test.ts fails when a first path segment of app/routes.ts, of the
// Express app's routing tables or of public/ is missing here (decision 0445).

/** Every first path segment of app/routes.ts, in its order. */
const ROUTE_SEGMENTS = [
  "404",
  "user_registration",
  "login",
  "register",
  "verify",
  "forgotpassword",
  "reset-password",
  "search_schools",
  "settings",
  "logout",
  "profile",
  "messages",
  "create",
  "ads",
  "saved",
  "home",
  "search",
  "notifications",
  "manifest.webmanifest",
  "media",
  "post",
  "dev",
  "admin",
] as const;

/** Paths served before React Router (server/http/app.ts, main.js, public/) and pages the spec plans. */
const TECHNICAL_PATHS = [
  "healthz",
  "api",
  "assets",
  "logos",
  "favicon.svg",
  // Decision 0253: the app icons, the service worker and its offline page.
  "icons",
  "sw.js",
  "offline.html",
  "media-files",
  "robots.txt",
  // Decision 0445: the live-event stream (decision 0211) and the payment webhook (decision 0270), both
  // mounted on the Express app ahead of the pages; the test reads the app's own table now.
  "events",
  "webhooks",
  // Decision 0463: chat photos, served to the chat's two members only.
  "chat-photos",
  "mentions",
  "cart",
  "checkout",
  // Decision 0520: the staff pages (/admin, /mod: official names below) and the public
  // moderation log /modlog a later change builds.
  "modlog",
  // Decisions 0601 and 0618: the trade's form route and a deal's review page.
  "trade",
  "deals",
] as const;

/** Names that would pass for the site's own staff or brand. */
const OFFICIAL_NAMES = [
  "admin",
  "administrator",
  "support",
  "moderator",
  "mod",
  "staff",
  "help",
  "security",
  "root",
  "system",
  "official",
  "team",
  "campusbuysell",
] as const;

/**
 * Each campus's slug (its host: 'ou' of ou.campusbuysell.com), code and short name, the name
 * without its spaces ('Campus Buy Sell' → 'campusbuysell').
 */
const CAMPUS_NAMES = campusList.flatMap((campus) => [
  campus.slug,
  campus.code,
  campus.name.replace(/\s+/g, ""),
]);

/** Lower case, sorted, without duplicates: the form the CHECK constraint is written in. */
export const RESERVED_USERNAMES: readonly string[] = [
  ...new Set(
    [...ROUTE_SEGMENTS, ...TECHNICAL_PATHS, ...OFFICIAL_NAMES, ...CAMPUS_NAMES].map((name) =>
      name.toLowerCase(),
    ),
  ),
].sort();

const reserved: ReadonlySet<string> = new Set(RESERVED_USERNAMES);

/** Whether nobody may hold `username`, in any case ('Admin' is 'admin'). */
export function isReservedUsername(username: string): boolean {
  return reserved.has(username.trim().toLowerCase());
}
