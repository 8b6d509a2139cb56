import { isIP } from "node:net";
import geoip from "fast-geoip";

/** Country and time zone of a network address, from the offline database inside fast-geoip. */
export interface IpLocation {
  country: string;
  timeZone: string;
}

export type IpLookup = (ip: string) => Promise<IpLocation | null>;

export const lookupIpLocation: IpLookup = async (ip) => {
  const info = await geoip.lookup(ip);
  return info ? { country: info.country, timeZone: info.timezone } : null;
};

/** Loopback, private, link-local and carrier-grade NAT addresses never leave the building: they pass. */
export function isLocalAddress(ip: string): boolean {
  const address = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return lower === "::1" || lower.startsWith("fc") || lower.startsWith("fd") || lower.startsWith("fe80");
  }
  if (isIP(address) !== 4) return false;
  const [a = 0, b = 0] = address.split(".").map(Number);
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a === 0
  );
}

/** The UTC offset, in minutes, that a time zone has at a moment; null for a name Intl does not know. */
export function utcOffsetMinutes(timeZone: string, at: Date): number | null {
  try {
    const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((part) => part.type === "timeZoneName")?.value;
    if (!name || name === "GMT") return 0;
    const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
    if (!match) return null;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return match[1] === "-" ? -minutes : minutes;
  } catch {
    return null;
  }
}

export interface GeoGateInput {
  /** GEO_GATE: the gate is on (production default). */
  enabled: boolean;
  /** FIREWALL=1 sends everyone to /404. */
  firewall: boolean;
  clientIp: string | null;
  /** What the browser reported through Intl (cookie), if it has yet. */
  browserTimeZone: string | null;
  now: Date;
}

export type GeoGateDecision =
  | { allowed: true; reason: "gate-off" | "local-address" | "unknown-address" | "lookup-failed" | "us-match" }
  | { allowed: false; reason: "firewall" | "outside-us" | "time-zone-mismatch" };

/**
 * spec 1 §1, §6: visitors outside the US, or whose browser time zone has another
 * UTC offset right now than their address's zone, go to /404. A failed lookup lets
 * the visitor through, as do local and unknown addresses.
 */
export async function decideGeoGate(
  input: GeoGateInput,
  lookup: IpLookup = lookupIpLocation,
): Promise<GeoGateDecision> {
  if (input.firewall) return { allowed: false, reason: "firewall" };
  if (!input.enabled) return { allowed: true, reason: "gate-off" };
  const ip = input.clientIp?.startsWith("::ffff:") ? input.clientIp.slice(7) : input.clientIp;
  if (!ip || isIP(ip) === 0) return { allowed: true, reason: "unknown-address" };
  if (isLocalAddress(ip)) return { allowed: true, reason: "local-address" };
  let location: IpLocation | null;
  try {
    location = await lookup(ip);
  } catch {
    return { allowed: true, reason: "lookup-failed" };
  }
  if (!location) return { allowed: true, reason: "unknown-address" };
  if (location.country !== "US") return { allowed: false, reason: "outside-us" };
  if (input.browserTimeZone) {
    const browserOffset = utcOffsetMinutes(input.browserTimeZone, input.now);
    const addressOffset = utcOffsetMinutes(location.timeZone, input.now);
    if (browserOffset !== null && addressOffset !== null && browserOffset !== addressOffset) {
      return { allowed: false, reason: "time-zone-mismatch" };
    }
  }
  return { allowed: true, reason: "us-match" };
}
