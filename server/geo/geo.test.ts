import { describe, expect, it } from "vitest";
import { decideGeoGate, type IpLookup, isLocalAddress, lookupIpLocation, utcOffsetMinutes } from "./geo";

const winter = new Date("2026-01-15T18:00:00Z");
const summer = new Date("2026-07-15T18:00:00Z");
const base = { enabled: true, firewall: false, browserTimeZone: null, now: winter };
const fixedLookup =
  (country: string, timeZone: string): IpLookup =>
  async () => ({ country, timeZone });

describe("geo gate (spec 1 §6)", () => {
  it("finds country and time zone in the offline database", async () => {
    expect(await lookupIpLocation("8.8.8.8")).toEqual({ country: "US", timeZone: "America/Chicago" });
    expect((await lookupIpLocation("81.2.69.142"))?.country).toBe("GB");
  });

  it("recognises local addresses", () => {
    for (const ip of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.9",
      "::ffff:127.0.0.1",
      "fd00::1",
    ]) {
      expect(isLocalAddress(ip), ip).toBe(true);
    }
    for (const ip of ["8.8.8.8", "172.32.0.1", "2001:4860:4860::8888"])
      expect(isLocalAddress(ip), ip).toBe(false);
  });

  it("computes a zone's offset at a moment, daylight saving included", () => {
    expect(utcOffsetMinutes("America/Chicago", winter)).toBe(-360);
    expect(utcOffsetMinutes("America/Chicago", summer)).toBe(-300);
    expect(utcOffsetMinutes("UTC", winter)).toBe(0);
    expect(utcOffsetMinutes("Not/AZone", winter)).toBeNull();
  });

  it.each([
    [
      "firewall forces the redirect",
      { firewall: true, clientIp: "127.0.0.1" },
      "US",
      "America/Chicago",
      false,
    ],
    ["gate off lets everyone in", { enabled: false, clientIp: "81.2.69.142" }, "GB", "Europe/London", true],
    ["loopback passes", { clientIp: "127.0.0.1" }, "JP", "Asia/Tokyo", true],
    ["private passes", { clientIp: "192.168.0.4" }, "JP", "Asia/Tokyo", true],
    ["no address passes", { clientIp: null }, "JP", "Asia/Tokyo", true],
    ["outside the US is sent away", { clientIp: "81.2.69.142" }, "GB", "Europe/London", false],
    ["US without a browser zone yet passes", { clientIp: "8.8.8.8" }, "US", "America/Chicago", true],
    [
      "US with the same offset passes",
      { clientIp: "8.8.8.8", browserTimeZone: "America/Chicago" },
      "US",
      "America/Chicago",
      true,
    ],
    [
      "same offset under another zone name passes",
      { clientIp: "8.8.8.8", browserTimeZone: "America/Mexico_City", now: summer },
      "US",
      "America/Denver",
      true,
    ],
    [
      "US address with a far browser zone is sent away",
      { clientIp: "8.8.8.8", browserTimeZone: "Asia/Tokyo" },
      "US",
      "America/Chicago",
      false,
    ],
    [
      "an unknown browser zone name is ignored",
      { clientIp: "8.8.8.8", browserTimeZone: "Mars/Olympus" },
      "US",
      "America/Chicago",
      true,
    ],
  ])("%s", async (_name, input, country, timeZone, allowed) => {
    const decision = await decideGeoGate({ ...base, ...input }, fixedLookup(country, timeZone));
    expect(decision.allowed).toBe(allowed);
  });

  it("lets the visitor through when the lookup itself fails", async () => {
    const failing: IpLookup = async () => {
      throw new Error("database unreadable");
    };
    expect(await decideGeoGate({ ...base, clientIp: "8.8.8.8" }, failing)).toEqual({
      allowed: true,
      reason: "lookup-failed",
    });
  });

  it("treats an address the database does not know as unknown", async () => {
    expect((await decideGeoGate({ ...base, clientIp: "8.8.8.8" }, async () => null)).allowed).toBe(true);
  });
});
