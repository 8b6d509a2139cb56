import { type Cookie, type CookieOptions, createCookie } from "react-router";

// The app's own cookies besides better-auth's session (toast, once-only redirects, the
// campus redirect): Secure in production and signed with APP_SECRET (decision 0111),
// so a cookie set by anyone but this server (another site under the same parent domain, a
// hand-edited one) is ignored rather than obeyed.

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

function currentSettings(): AppCookieSettings {
  const settings = (globalThis as SettingsHolder)[SETTINGS_KEY];
  // Never fall back to an unsigned cookie.
  if (!settings) throw new Error("App cookies used before configureAppCookies() (server/http/app.ts)");
  return settings;
}

/**
 * A cookie of the app, made on first use with the process's settings: `cookie().parse(…)`
 * answers null for a value this server did not sign.
 */
export function appCookie(name: string, options: Omit<CookieOptions, "secrets" | "secure">): () => Cookie {
  let made: { settings: AppCookieSettings; cookie: Cookie } | null = null;
  return () => {
    const settings = currentSettings();
    if (made?.settings !== settings) {
      made = {
        settings,
        cookie: createCookie(name, { ...options, secrets: settings.secrets, secure: settings.secure }),
      };
    }
    return made.cookie;
  };
}
