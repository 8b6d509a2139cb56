import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Which push endpoints the server may post to (decision 0460). The browser names the
 * address and the server sends to it, so an open choice would be a blind server-side request
 * forgery: only https addresses of the browser vendors' push services are taken, and at send time
 * the host must still resolve to public addresses only.
 */

/** The browser vendors' push services: exact hosts, and suffixes any subdomain of which is theirs. */
const PUSH_HOSTS: readonly string[] = ["fcm.googleapis.com", "web.push.apple.com"];
const PUSH_HOST_SUFFIXES: readonly string[] = [
  ".push.services.mozilla.com",
  ".notify.windows.com",
  ".push.apple.com",
];

/** Loopback names the test-only allowance (PUSH_LOCAL_SERVICE, never in production) admits. */
const LOCAL_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Addresses no push goes to: loopback, private, link-local (with the cloud metadata address
 * 169.254.169.254), CGNAT, "this network", multicast and reserved, and their IPv6 forms
 * (IPv4-mapped and NAT64 addresses are refused whole: no push service is reached through them).
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv6");
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * ::ffff:a.b.c.d in any spelling (the URL parser's compressed form, e.g. ::ffff:7f00:1). Checked
 * by hand: BlockList matches IPv4 addresses against an IPv6 ::ffff:0:0/96 rule too.
 */
function isIpv4Mapped(address: string): boolean {
  return new URL(`http://[${address}]/`).hostname.toLowerCase().startsWith("[::ffff:");
}

/** Whether the server must never send a push to this IP address. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && isIpv4Mapped(address)) return true;
  return REFUSED.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface PushEndpointRules {
  /** PUSH_LOCAL_SERVICE: a push service on this machine (the tests' web-push-testing) is admitted. */
  allowLocalService: boolean;
}

function isPushServiceHost(host: string): boolean {
  return PUSH_HOSTS.includes(host) || PUSH_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * Why an endpoint is refused by its address alone (null: admitted): https, a push service's host,
 * its default port and no credentials; or, with the test-only allowance, a loopback host.
 */
export function endpointRefusal(endpoint: string, rules: PushEndpointRules): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "not an address";
  }
  if (url.username || url.password) return "credentials in the address";
  const host = url.hostname.toLowerCase();
  if (rules.allowLocalService && LOCAL_HOSTS.includes(host)) {
    return url.protocol === "http:" || url.protocol === "https:" ? null : "not http(s)";
  }
  if (url.protocol !== "https:") return "not https";
  if (url.port !== "") return "not the default port";
  if (!isPushServiceHost(host)) return "not a known push service";
  return null;
}

/**
 * Send time (decision 0460): the address rules again (subscriptions stored before them, or a
 * configuration that changed), then every address the host resolves to must be public; loopback
 * is admitted only for the allowance's own hosts. Returns why it is refused, or null.
 */
export async function sendRefusal(endpoint: string, rules: PushEndpointRules): Promise<string | null> {
  const refused = endpointRefusal(endpoint, rules);
  if (refused) return refused;
  const url = new URL(endpoint);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const local = rules.allowLocalService && LOCAL_HOSTS.includes(url.hostname.toLowerCase());
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    // Not resolvable now: not refused for good; the send fails and is tried with the next push.
    return null;
  }
  for (const { address, family } of addresses) {
    if (local && LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6")) continue;
    if (isRefusedAddress(address)) return `resolves to ${address}`;
  }
  return null;
}
