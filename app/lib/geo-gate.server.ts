import { type AppLoadContext, redirect } from "react-router";
import { decideGeoGate, type GeoGateDecision } from "~/server/geo/geo";
import { timeZoneFromCookieHeader } from "~/server/geo/time-zone-cookie.shared";
import { isGeoGatedPath } from "./geo-gate";

/** The time zone the browser reported through Intl in the `tz` cookie (see ./geo-gate.ts), or null. */
export function reportedTimeZone(request: Request): string | null {
  return timeZoneFromCookieHeader(request.headers.get("Cookie"));
}

interface Args {
  request: Request;
  context: AppLoadContext;
}

const decisions = new WeakMap<Request, Promise<GeoGateDecision>>();

/**
 * The gate's decision for this request (server/geo/geo.ts decideGeoGate, with
 * GEO_GATE, FIREWALL and the client address, which honours TRUST_PROXY), made
 * once per request.
 */
export function geoGateDecision({ request, context }: Args): Promise<GeoGateDecision> {
  let decision = decisions.get(request);
  if (!decision) {
    const { config, clock } = context.app;
    decision = decideGeoGate({
      enabled: config.geoGate,
      firewall: config.firewall,
      clientIp: context.clientIp,
      browserTimeZone: reportedTimeZone(request),
      now: clock.now(),
    });
    decisions.set(request, decision);
  }
  return decision;
}

/**
 * The root loader's check: on the routes the spec names, a visitor the gate
 * keeps out is sent to /404 (spec 1 §6). Client-side navigations reach it too:
 * the root route revalidates whenever the next page is one of them.
 */
export async function enforceGeoGate(args: Args): Promise<GeoGateDecision> {
  const decision = await geoGateDecision(args);
  if (!decision.allowed && isGeoGatedPath(new URL(args.request.url).pathname)) {
    args.context.app.log.debug(
      { reason: decision.reason, ip: args.context.clientIp },
      "geo gate: sent to /404",
    );
    throw redirect("/404");
  }
  return decision;
}
