import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { SignInModalProvider } from "./components/auth/sign-in-modal";
import { ComposerProvider } from "./components/posts/composer-provider";
import { Shell } from "./components/shell/shell";
import { IconSprite } from "./components/ui/icons";
import { useListLinkNavigation } from "./components/ui/list-link";
import { ToastProvider } from "./components/ui/toaster";
import { campusOriginOf } from "./lib/campus-origin.server";
import { applyCampusRedirect } from "./lib/campus-redirect.server";
import { isGeoGatedPath, REPORT_TIME_ZONE_SCRIPT, useReportTimeZone } from "./lib/geo-gate";
import { enforceGeoGate, reportedTimeZone } from "./lib/geo-gate.server";
import { gradYearBanner } from "./lib/grad-year-banner.server";
import { whenPartsHydrated } from "./lib/lazy-load";
import { useNonce } from "./lib/nonce";
import { RealtimeProvider, RevalidateOnRealtime } from "./lib/realtime";
import { useRecordNavigation } from "./lib/record-navigation";
import { shellCounts } from "./lib/shell-counts.server";

/** The live events that change what the shell shows (the unread badges, decision 0523's staff count) or an open chat. */
const LIVE_SHELL_EVENTS = ["chat", "notification", "staff"] as const;

import { takeToast } from "./lib/toast.server";
import { applyOnceRedirects } from "./lib/verification-redirect.server";
import { getViewer } from "./lib/viewer.server";

export async function loader(args: Route.LoaderArgs) {
  const { campus, app } = args.context;
  // spec 1 §6: outside the US, a mismatched time zone, or FIREWALL=1 → /404 on the gated pages.
  const geo = await enforceGeoGate(args);
  const [viewer, { toast, headers }] = await Promise.all([getViewer(args), takeToast(args.request)]);
  // spec 1 §4: an unverified user is sent to /verify, once.
  for (const cookie of (await applyOnceRedirects(args.request, viewer, campus)).getSetCookie()) {
    headers.append("Set-Cookie", cookie);
  }
  // spec 1 §2: the badges' unread chats (decision 0235) and notifications (decision 0250), the viewer's
  // latest event number (decision 0210), so the live stream opened after this page loaded replays
  // whatever happened in between (app/lib/realtime.tsx), and the member count. One statement (decision 0354).
  const counts = await shellCounts(app, args.request, viewer, campus.id);
  const { unreadChats, unreadNotifications, memberCount } = counts;
  const realtimeSeq = viewer ? counts.realtimeSeq : null;
  const campusUrl = (campusId: string) => campusOriginOf(args.request, args.context, campusId);
  // spec 1 §1: on the generic instance, redirect_to sends the member to their campus's site (once).
  await applyCampusRedirect(args.request, viewer, campus, campusUrl);
  return data(
    {
      campus: {
        id: campus.id,
        name: campus.name,
        school: campus.school,
        generic: campus.generic,
        city: campus.city,
        state: campus.state,
        logo: campus.logo,
        privacy: campus.privacy,
      },
      viewer,
      memberCount,
      toast,
      googleConfigured: Boolean(app.config.googleClientId),
      // spec 1 §2: unread notifications plus unread chats.
      unreadNotifications,
      unreadChats,
      unreadCount: unreadNotifications + unreadChats,
      /** Decision 0523: what waits for staff, beside their avatar; 0 for everyone else. */
      waitingItems: counts.waitingItems,
      realtimeSeq,
      /** The school-verified member's own campus site ('Visit Your Campus', 'View Your Campus'). */
      viewerCampusUrl: viewer?.schoolVerified ? campusUrl(viewer.campusId) : null,
      /** spec 1 §2: the sign-in items lead to /404 for a visitor the geo gate keeps out. */
      geoBlocked: !geo.allowed,
      /** Whether the geo gate checks anything, and the time zone it saw (see app/lib/geo-gate.ts). */
      geoGateOn: app.config.geoGate || app.config.firewall,
      reportedTimeZone: reportedTimeZone(args.request),
      /** Decision 0682: the class years the year banner offers, when it shows; null otherwise. */
      gradYearBanner: await gradYearBanner(args.request, viewer, app.clock.now()),
      /** The footers' '© {year}' (spec 1 §9): this year by the app's clock, on every campus. */
      year: app.clock.now().getUTCFullYear(),
    },
    { headers },
  );
}

/**
 * The root data is read again on every navigation to a page the geo gate
 * checks (spec 1 §6), so a client-side navigation cannot slip past it.
 */
export function shouldRevalidate({
  nextUrl,
  currentUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (nextUrl.pathname !== currentUrl.pathname && isGeoGatedPath(nextUrl.pathname)) return true;
  // spec 2 §4: opening the notifications list resets the badge.
  if (nextUrl.pathname === "/notifications" || currentUrl.pathname === "/notifications") return true;
  return defaultShouldRevalidate;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Effects run children first, so this one marks the end of hydration, once the parts that hydrate
  // from chunks of their own have too (decision 0370): from here on every control answers to its
  // script (the end-to-end tests wait for it rather than guess).
  useEffect(() => {
    whenPartsHydrated(() => {
      document.documentElement.dataset.hydrated = "true";
    });
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#b91c1c" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The campus's installable app (decision 0253). */}
        <link rel="manifest" href="/manifest.webmanifest" />
        {/* spec 1 §6: the browser reports its time zone, once the page is painted. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no user data (JSX children would be HTML-escaped, which breaks a script). */}
        <script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: REPORT_TIME_ZONE_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-zinc-50 font-sans text-zinc-900 antialiased">
        <IconSprite />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useReportTimeZone(loaderData.reportedTimeZone, loaderData.geoGateOn);
  // Decision 0253: the offline page and the installable app; push permission is asked only in settings.
  // Decision 0340: loaded after hydration, not with the page.
  useEffect(() => {
    void import("./lib/push").then(({ registerServiceWorker }) => registerServiceWorker());
  }, []);
  useRecordNavigation();
  // Decision 0351: the post cards' links are plain anchors; this one listener follows them in the app.
  useListLinkNavigation();
  return (
    <RealtimeProvider userId={loaderData.viewer?.id ?? null} seq={loaderData.realtimeSeq}>
      <RevalidateOnRealtime types={LIVE_SHELL_EVENTS} />
      <ToastProvider serverToast={loaderData.toast}>
        <SignInModalProvider>
          <ComposerProvider>
            <Shell>
              <Outlet />
            </Shell>
          </ComposerProvider>
        </SignInModalProvider>
      </ToastProvider>
    </RealtimeProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let message = SOMETHING_WENT_WRONG;
  let details = "An unexpected error occurred. Try again in a moment.";
  if (isRouteErrorResponse(error)) {
    message = error.status === 404 ? "This page doesn't exist." : `Error ${error.status}`;
    details = error.status === 404 ? "Try searching for something else." : error.statusText || details;
  }
  return (
    <main className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{message}</h1>
      <p className="mt-3 text-zinc-600">{details}</p>
      <a
        href="/home"
        className="mt-6 inline-block rounded-full bg-brand-600 px-5 py-2.5 font-semibold text-white"
      >
        Go To Feed
      </a>
    </main>
  );
}
