import { describe, expect, it } from "vitest";
import { loadConfig, parsePublicCampuses } from "./config";

// Decision 0135: PUBLIC_CAMPUSES opens campuses to visitors; unset, none is open.

const base = { APP_SECRET: "x", DATA_DIR: "/tmp/cbs-config-test" };

describe("PUBLIC_CAMPUSES", () => {
  it("leaves every campus private when unset or empty (spec 1 §3)", () => {
    expect(loadConfig(base).publicCampuses).toEqual([]);
    expect(loadConfig({ ...base, PUBLIC_CAMPUSES: "" }).publicCampuses).toEqual([]);
    expect(loadConfig({ ...base, PUBLIC_CAMPUSES: " , " }).publicCampuses).toEqual([]);
  });

  it("opens the campuses it lists, whatever the case and spacing", () => {
    expect(loadConfig({ ...base, PUBLIC_CAMPUSES: "ou,ut" }).publicCampuses).toEqual(["ou", "ut"]);
    expect(parsePublicCampuses(" OU , ut,ou ")).toEqual(["ou", "ut"]);
  });

  it("opens every campus with `all`", () => {
    const all = parsePublicCampuses("all");
    expect(all).toHaveLength(15);
    expect(all).toEqual(expect.arrayContaining(["www", "ou", "ut", "duke", "unt"]));
    expect(parsePublicCampuses("ALL")).toEqual(all);
  });

  it("refuses to start with a campus id it does not know, naming it", () => {
    expect(() => loadConfig({ ...base, PUBLIC_CAMPUSES: "ou,texas" })).toThrow(
      /PUBLIC_CAMPUSES: unknown campus "texas"; expected "all" or a comma-separated list of: www, ou, ut/,
    );
    expect(() => parsePublicCampuses("ou.localhost")).toThrow(/unknown campus "ou\.localhost"/);
  });
});

describe("DATABASE_READ_URL (decision 0361)", () => {
  it("is a replica of DATABASE_URL: unset by default, refused without DATABASE_URL", () => {
    expect(loadConfig(base).databaseReadUrl).toBeNull();
    const primary = "postgres://app@db/campusbuysell";
    const replica = "postgres://app@replica/campusbuysell";
    expect(loadConfig({ ...base, DATABASE_URL: primary, DATABASE_READ_URL: replica }).databaseReadUrl).toBe(
      replica,
    );
    expect(() => loadConfig({ ...base, DATABASE_READ_URL: replica })).toThrow(
      "DATABASE_READ_URL is a replica of DATABASE_URL: set DATABASE_URL too, or leave DATABASE_READ_URL unset",
    );
  });
});

describe("PUSH_LOCAL_SERVICE (decision 0460)", () => {
  it("is off by default, on for tests when asked, and stops a production start", () => {
    expect(loadConfig(base).pushLocalService).toBe(false);
    expect(loadConfig({ ...base, PUSH_LOCAL_SERVICE: "1" }).pushLocalService).toBe(true);
    expect(() => loadConfig({ ...base, NODE_ENV: "production", PUSH_LOCAL_SERVICE: "1" })).toThrow(
      "PUSH_LOCAL_SERVICE is for tests only and is refused when NODE_ENV=production",
    );
  });
});

describe("TEST_CLOCK (decision 0481)", () => {
  it("is off by default, on for tests when asked, and stops a production start with a clear message", () => {
    expect(loadConfig(base).testClock).toBe(false);
    expect(loadConfig({ ...base, TEST_CLOCK: "1" }).testClock).toBe(true);
    expect(() => loadConfig({ ...base, NODE_ENV: "production", TEST_CLOCK: "1" })).toThrow(
      "TEST_CLOCK=1 is for tests only and is refused when NODE_ENV=production",
    );
  });
});

// Decision 0446: sign-ups per client address.
describe("SIGN_UPS_PER_5_MINUTES and SIGN_UPS_PER_HOUR", () => {
  it("lets 25 sign-ups in 5 minutes from one address by default, so a dorm behind one address gets in", () => {
    expect(loadConfig(base).signUpLimit).toEqual({ max: 25, windowMs: 5 * 60_000 });
    expect(loadConfig({ ...base, SIGN_UPS_PER_5_MINUTES: "40" }).signUpLimit).toEqual({
      max: 40,
      windowMs: 5 * 60_000,
    });
  });

  it("keeps SIGN_UPS_PER_HOUR's meaning (docs/contract.md): that many in an hour", () => {
    expect(loadConfig({ ...base, SIGN_UPS_PER_HOUR: "1000" }).signUpLimit).toEqual({
      max: 1000,
      windowMs: 60 * 60_000,
    });
  });

  it("refuses both at once, and a count below 1", () => {
    expect(() => loadConfig({ ...base, SIGN_UPS_PER_HOUR: "10", SIGN_UPS_PER_5_MINUTES: "25" })).toThrow(
      "Set SIGN_UPS_PER_HOUR or SIGN_UPS_PER_5_MINUTES, not both",
    );
    expect(() => loadConfig({ ...base, SIGN_UPS_PER_5_MINUTES: "0" })).toThrow(/SIGN_UPS_PER_5_MINUTES/);
  });
});
