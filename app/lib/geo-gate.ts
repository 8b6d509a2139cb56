import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { TIME_ZONE_COOKIE } from "~/server/geo/time-zone-cookie.shared";

/**
 * The browser's half of the geo gate (spec 1 §1, §6; the decision is made by
 * ./geo-gate.server.ts). The browser's time zone must match its address's, so
 * the browser reports it through Intl in a cookie: an inline script in the
 * document's head sets it once the page has first been painted, whether or not
 * the app's modules load, and the app sets it again after hydration (the zone
 * can change while a tab stays open).
 */

/**
 * spec 1 §6: 'Geolocation lookups run on /, /home, /messages, /user_registration,
 * /login and /register'. /messages covers its conversations below it.
 */
const gatedPaths = new Set(["/", "/home", "/messages", "/user_registration", "/login", "/register"]);

export function isGeoGatedPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return gatedPaths.has(path) || path.startsWith("/messages/");
}

const cookieAttributes = "path=/;max-age=31536000;samesite=lax";

/**
 * The inline script of the document's head (it runs with the response's CSP nonce). A browser's
 * first Intl.DateTimeFormat loads its time-zone data: 11–28 ms on a fast machine, four times that
 * on a slow phone. Run where the parser meets the script, that held up the first paint, so it
 * waits for the frame after the first one (decision 0430).
 */
export const REPORT_TIME_ZONE_SCRIPT = `try{requestAnimationFrame(function(){setTimeout(function(){try{document.cookie="${TIME_ZONE_COOKIE}="+encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)+";${cookieAttributes}"}catch(e){}})})}catch(e){}`;

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * After hydration: reports the zone and, when the server decided this page
 * without it (a first visit) or with another one, runs the loaders again, so a
 * visitor the gate keeps out reaches /404 at once rather than on the next page.
 */
export function useReportTimeZone(serverSawTimeZone: string | null, gateOn: boolean): void {
  const revalidator = useRevalidator();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const zone = browserTimeZone();
    if (!zone) return;
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from older Safari; the value is encoded.
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)};${cookieAttributes}`;
    if (gateOn && zone !== serverSawTimeZone) void revalidator.revalidate();
  }, [serverSawTimeZone, gateOn, revalidator]);
}
