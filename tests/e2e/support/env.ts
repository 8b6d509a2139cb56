// Where the end-to-end harness listens. Fixed ports (overridable) because the
// Playwright config, the global setup and every worker process must agree.
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 4130);
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4131);
export const SINK_API_PORT = Number(process.env.E2E_SINK_API_PORT ?? 4132);
/** gates.spec.ts's own apps; next to the app's port, so a run on other ports moves them too. */
export const GEO_PORT = Number(process.env.E2E_GEO_PORT ?? APP_PORT + 3);
export const FIREWALL_PORT = Number(process.env.E2E_FIREWALL_PORT ?? APP_PORT + 4);
/** realtime-two-process.spec.ts's two apps on one PostgreSQL database. */
export const REALTIME_PORTS = [
  Number(process.env.E2E_REALTIME_PORT_A ?? APP_PORT + 5),
  Number(process.env.E2E_REALTIME_PORT_B ?? APP_PORT + 6),
] as const;
/**
 * realtime-restart.spec.ts's two apps: ports of their own, as Playwright may run that spec beside
 * realtime-two-process.spec.ts (sharing ports, each spec's requests reached the other's apps).
 * APP_PORT + 7 is scale-out.spec.ts's.
 */
export const RESTART_PORTS = [
  Number(process.env.E2E_RESTART_PORT_A ?? APP_PORT + 8),
  Number(process.env.E2E_RESTART_PORT_B ?? APP_PORT + 9),
] as const;

/**
 * The app of the specs that move the test clock (support/clock-app.ts, decision 0481): one of its
 * own, as moving the shared app's clock would move it under every other spec. Past the ports
 * above (APP_PORT + 10 is demo.spec.ts's).
 */
export const TEST_CLOCK_PORT = Number(process.env.E2E_TEST_CLOCK_PORT ?? APP_PORT + 11);

/**
 * trade-journey.spec.ts's clock app: a port of its own, so it may run beside the specs on
 * TEST_CLOCK_PORT. APP_PORT + 12 is trade-reviews.spec.ts's.
 */
export const TRADE_JOURNEY_PORT = Number(process.env.E2E_TRADE_JOURNEY_PORT ?? APP_PORT + 13);

/**
 * Decision 0135: every campus is private unless PUBLIC_CAMPUSES opens it. The harness opens every
 * campus but this one, which the privacy spec (private-campus.spec.ts) keeps to itself, so the
 * specs that browse signed out read whichever campus they use.
 */
export const PRIVATE_CAMPUS = "unt";

export const BASE_URL = `http://localhost:${APP_PORT}`;

/** A campus host (docs/contract.md 'Campuses and hosts'): `ut` → http://ut.localhost:<port>. */
export function hostUrl(slug: string | null, path = "/"): string {
  const host = slug ? `${slug}.localhost` : "localhost";
  return `http://${host}:${APP_PORT}${path}`;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** docs/contract.md 'Browser end-to-end tests'. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
