// The settings of the app's own cookies (app/lib/cookies.server.ts makes them): the process's
// configuration, given once at start by the composition root (server/http/app.ts) and by the
// test context, as better-auth receives its own once. Here, not in app/, so the composition root
// imports nothing from the web layer.

export interface AppCookieSettings {
  /** APP_SECRET first; older secrets after it still verify (rotation). */
  secrets: string[];
  /** NODE_ENV=production (decision 0003). */
  secure: boolean;
}

/** On globalThis so it survives Vite's module reloads in development (docs/architecture.md pitfall 4). */
const SETTINGS_KEY = Symbol.for("campus-buy-sell.app-cookie-settings");
type SettingsHolder = { [SETTINGS_KEY]?: AppCookieSettings };

/**
 * Called once per process, at start (server/http/app.ts) and by the test context: the secret and
 * the production switch are the process's configuration, as better-auth receives them once.
 */
export function configureAppCookies(settings: AppCookieSettings): void {
  if (settings.secrets.length === 0 || settings.secrets.some((secret) => secret.length === 0)) {
    throw new Error("configureAppCookies: a non-empty secret is required");
  }
  (globalThis as SettingsHolder)[SETTINGS_KEY] = settings;
}

/** The settings configureAppCookies set; app cookies are never made without them (app/lib/cookies.server.ts). */
export function currentAppCookieSettings(): AppCookieSettings {
  const settings = (globalThis as SettingsHolder)[SETTINGS_KEY];
  // Never fall back to an unsigned cookie.
  if (!settings) throw new Error("App cookies used before configureAppCookies() (server/http/app.ts)");
  return settings;
}
