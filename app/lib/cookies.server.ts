import { type Cookie, type CookieOptions, createCookie } from "react-router";
import { type AppCookieSettings, currentAppCookieSettings } from "~/server/http/cookie-settings";

// The app's own cookies besides better-auth's session (toast, once-only redirects, the
// campus redirect): Secure in production and signed with APP_SECRET (decision 0111),
// so a cookie set by anyone but this server (another site under the same parent domain, a
// hand-edited one) is ignored rather than obeyed.

/**
 * A cookie of the app, made on first use with the process's settings: `cookie().parse(…)`
 * answers null for a value this server did not sign.
 */
export function appCookie(name: string, options: Omit<CookieOptions, "secrets" | "secure">): () => Cookie {
  let made: { settings: AppCookieSettings; cookie: Cookie } | null = null;
  return () => {
    const settings = currentAppCookieSettings();
    if (made?.settings !== settings) {
      made = {
        settings,
        cookie: createCookie(name, { ...options, secrets: settings.secrets, secure: settings.secure }),
      };
    }
    return made.cookie;
  };
}
