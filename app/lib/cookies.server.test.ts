import { beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "~/server/accounts/viewer";
import { configureAppCookies } from "../../server/http/cookie-settings";
import { applyCampusRedirect } from "./campus-redirect.server";
import { takeToast, toastHeaders } from "./toast.server";
import { applyOnceRedirects, resetOnceRedirects } from "./verification-redirect.server";

// Decision 0111: cbs_toast, cbs_once_redirects and cbs_campus_redirect are signed
// with APP_SECRET and Secure in production; a value this server did not sign is ignored.

const SECRET = "cookie-test-secret-cookie-test-secret";

/** A cookie value as React Router writes an unsigned one: base64 of the JSON. */
function unsigned(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}

const cookiePair = (setCookie: string | null | undefined) => (setCookie ?? "").split(";")[0] ?? "";

function request(path: string, cookie?: string): Request {
  return new Request(`http://www.localhost${path}`, cookie ? { headers: { Cookie: cookie } } : {});
}

const viewer: Viewer = {
  id: "u1",
  email: "jamie@utexas.edu",
  firstName: "Jamie",
  lastName: "R.",
  username: "jamier",
  img: null,
  campusId: "ut",
  verified: false,
  schoolVerified: false,
  schoolEmail: null,
  gradYear: null,
  profileSetUp: false,
  banned: false,
  suspendedUntil: null,
  redirectTo: "ut",
};

/** Where a call redirects (its Location), or null when the page renders. */
async function redirectOf(call: Promise<unknown>): Promise<string | null> {
  try {
    await call;
    return null;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return thrown.headers.get("Location");
  }
}

beforeEach(() => {
  configureAppCookies({ secrets: [SECRET], secure: false });
});

describe("the toast cookie", () => {
  it("shows a toast this server queued", async () => {
    const headers = await toastHeaders({ message: "Email sent.", type: "okay" });
    const { toast } = await takeToast(request("/home", cookiePair(headers.get("Set-Cookie"))));
    expect(toast).toMatchObject({ message: "Email sent.", type: "okay" });
  });

  it("ignores a toast anyone else wrote, and never fails on a broken one", async () => {
    const forged = unsigned({
      id: "x",
      message: "Your account is locked: sign in again at evil.example",
      type: "danger",
      durationMs: 60_000,
      link: { to: "https://evil.example/login", label: "Sign in" },
    });
    const signedElsewhere = await (async () => {
      configureAppCookies({ secrets: ["another-secret"], secure: false });
      const headers = await toastHeaders({ message: "Not ours", type: "okay" });
      configureAppCookies({ secrets: [SECRET], secure: false });
      return cookiePair(headers.get("Set-Cookie"));
    })();
    for (const cookie of [
      `cbs_toast=${forged}`,
      signedElsewhere,
      "cbs_toast=%%%",
      "cbs_toast=abc.def",
      "cbs_toast=.",
      "cbs_toast=e30%3D.AAAA",
    ]) {
      const { toast } = await takeToast(request("/home", cookie));
      expect(toast, cookie).toBeNull();
    }
  });
});

describe("the once-only redirects cookie (spec 1 §4)", () => {
  it("is obeyed when this server wrote it", async () => {
    const first = await redirectOf(applyOnceRedirects(request("/home"), viewer, { generic: false }));
    expect(first).toBe("/verify");
    const headers = await applyOnceRedirects(request("/verify"), viewer, { generic: false });
    const again = applyOnceRedirects(
      request("/home", cookiePair(headers.get("Set-Cookie"))),
      { ...viewer, verified: true, schoolVerified: true },
      { generic: false },
    );
    expect(await redirectOf(again)).toBeNull();
  });

  it("ignores a forged one: the redirect still happens", async () => {
    for (const cookie of [
      `cbs_once_redirects=${unsigned(["verify-email", "verify-school"])}`,
      "cbs_once_redirects=garbage",
    ]) {
      const target = await redirectOf(
        applyOnceRedirects(request("/home", cookie), viewer, { generic: false }),
      );
      expect(target, cookie).toBe("/verify");
    }
  });
});

describe("the campus redirect cookie (spec 1 §1)", () => {
  const www = { id: "www", generic: true };
  const campusUrl = (id: string) => `http://${id}.localhost:3000`;

  it("ignores a forged one: the member is still sent to their campus", async () => {
    for (const cookie of [`cbs_campus_redirect=${unsigned(true)}`, "cbs_campus_redirect=dHJ1ZQ%3D%3D.xx"]) {
      const target = await redirectOf(applyCampusRedirect(request("/home", cookie), viewer, www, campusUrl));
      expect(target, cookie).toBe("http://ut.localhost:3000/home");
    }
  });
});

describe("Secure in production", () => {
  async function setCookies(): Promise<string[]> {
    const toast = await toastHeaders({ message: "Saved", type: "success" });
    const reset = await resetOnceRedirects();
    const onceHeaders = await applyOnceRedirects(request("/verify"), viewer, { generic: false });
    let campus: string | null = null;
    try {
      await applyCampusRedirect(request("/home"), viewer, { id: "www", generic: true }, () => "http://x");
    } catch (thrown) {
      if (thrown instanceof Response) campus = thrown.headers.get("Set-Cookie");
    }
    return [toast, reset, onceHeaders].flatMap((headers) => headers.getSetCookie()).concat(campus ?? []);
  }

  it("marks every one Secure in production, and not on plain-http development", async () => {
    configureAppCookies({ secrets: [SECRET], secure: true });
    const production = await setCookies();
    expect(production.map((cookie) => cookie.split("=")[0])).toEqual([
      "cbs_toast",
      "cbs_once_redirects",
      "cbs_once_redirects",
      "cbs_campus_redirect",
    ]);
    for (const cookie of production) expect(cookie, cookie).toMatch(/; Secure/);
    configureAppCookies({ secrets: [SECRET], secure: false });
    for (const cookie of await setCookies()) expect(cookie, cookie).not.toMatch(/Secure/);
  });
});
