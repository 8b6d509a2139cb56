import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampusDirectory } from "~/server/campuses/directory";
import { createTestContext, type TestContext } from "~/tests/support/test-context";
import { isGeoGatedPath, REPORT_TIME_ZONE_SCRIPT } from "./geo-gate";
import { enforceGeoGate, geoGateDecision, reportedTimeZone } from "./geo-gate.server";

let t: TestContext;
let campuses: CampusDirectory;
beforeAll(async () => {
  t = await createTestContext();
  // Winter: Chicago is UTC-6.
  t.clock.set(new Date("2026-01-15T18:00:00Z"));
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
});
afterAll(() => t.close());

function context(
  clientIp: string | null,
  flags: { geoGate?: boolean; firewall?: boolean } = {},
): AppLoadContext {
  return {
    app: {
      ...t.ctx,
      config: { ...t.ctx.config, geoGate: flags.geoGate ?? true, firewall: flags.firewall ?? false },
    },
    auth: t.auth,
    campuses,
    campus: campuses.forHost("localhost"),
    nonce: "",
    clientIp,
  };
}

function request(path: string, timeZone?: string): Request {
  const headers = new Headers();
  if (timeZone) headers.set("Cookie", `theme=dark; tz=${encodeURIComponent(timeZone)}`);
  return new Request(`http://localhost${path}`, { headers });
}

/** Where the gate sends a request: the redirect's Location, or null when the page renders. */
async function outcome(req: Request, ctx: AppLoadContext): Promise<string | null> {
  try {
    await enforceGeoGate({ request: req, context: ctx });
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("Location");
    throw thrown;
  }
}

describe("the geo gate's routes (spec 1 §6)", () => {
  it("checks /, /home, /messages, /user_registration, /login and /register", () => {
    for (const path of [
      "/",
      "/home",
      "/home/",
      "/messages",
      "/messages/42",
      "/user_registration",
      "/login",
      "/register",
    ]) {
      expect(isGeoGatedPath(path), path).toBe(true);
    }
    for (const path of [
      "/404",
      "/search_schools",
      "/settings/about",
      "/post/1",
      "/homework",
      "/login/sent",
    ]) {
      expect(isGeoGatedPath(path), path).toBe(false);
    }
  });
});

describe("the time zone the browser reports", () => {
  it("reads the tz cookie set by the document's script", () => {
    expect(reportedTimeZone(request("/home", "America/Argentina/Buenos_Aires"))).toBe(
      "America/Argentina/Buenos_Aires",
    );
    expect(reportedTimeZone(request("/home"))).toBeNull();
  });

  it("ignores a value that is no zone name", () => {
    const odd = new Request("http://localhost/home", { headers: { Cookie: "tz=%3Cscript%3E; a=b" } });
    expect(reportedTimeZone(odd)).toBeNull();
    const broken = new Request("http://localhost/home", { headers: { Cookie: "tz=%E0%A4%A" } });
    expect(reportedTimeZone(broken)).toBeNull();
  });

  it("is set by a script that reads Intl once the page has been painted, not while it is parsed", () => {
    const frames: (() => void)[] = [];
    const tasks: (() => void)[] = [];
    const page = { cookie: "" };
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const run = new Function(
      "requestAnimationFrame",
      "setTimeout",
      "document",
      "Intl",
      REPORT_TIME_ZONE_SCRIPT,
    );
    run(
      (frame: () => void) => frames.push(frame),
      (task: () => void) => tasks.push(task),
      page,
      Intl,
    );
    expect(page.cookie).toBe("");
    for (const frame of frames.splice(0)) frame();
    expect(page.cookie).toBe("");
    for (const task of tasks.splice(0)) task();
    expect(page.cookie).toBe(`tz=${encodeURIComponent(zone)};path=/;max-age=31536000;samesite=lax`);
  });
});

describe("enforceGeoGate (the root loader's check)", () => {
  it("lets a US address with a matching time zone in", async () => {
    expect(await outcome(request("/home", "America/Chicago"), context("8.8.8.8"))).toBeNull();
  });

  it("lets a US address in before its browser has reported a zone", async () => {
    expect(await outcome(request("/home"), context("8.8.8.8"))).toBeNull();
  });

  it("sends a US address with a far time zone to /404", async () => {
    expect(await outcome(request("/home", "Asia/Tokyo"), context("8.8.8.8"))).toBe("/404");
  });

  it("sends an address outside the US to /404", async () => {
    expect(await outcome(request("/login"), context("81.2.69.142"))).toBe("/404");
  });

  it("lets loopback and private addresses through", async () => {
    expect(await outcome(request("/home", "Asia/Tokyo"), context("127.0.0.1"))).toBeNull();
    expect(await outcome(request("/home", "Asia/Tokyo"), context("::ffff:192.168.1.20"))).toBeNull();
  });

  it("sends everyone to /404 with FIREWALL=1, even with the gate off", async () => {
    expect(await outcome(request("/home"), context("127.0.0.1", { geoGate: false, firewall: true }))).toBe(
      "/404",
    );
  });

  it("lets everyone through with the gate off", async () => {
    expect(await outcome(request("/home"), context("81.2.69.142", { geoGate: false }))).toBeNull();
  });

  it("leaves the other pages alone, but still reports the decision (the sign-in menu uses it)", async () => {
    const ctx = context("81.2.69.142");
    const req = request("/search_schools");
    expect(await outcome(req, ctx)).toBeNull();
    expect(await geoGateDecision({ request: req, context: ctx })).toEqual({
      allowed: false,
      reason: "outside-us",
    });
  });
});
