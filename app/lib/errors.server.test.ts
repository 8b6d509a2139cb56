import { describe, expect, it, vi } from "vitest";
import { ACCOUNT_MESSAGES, AccountError, SETTINGS_ERRORS } from "~/server/accounts/errors.shared";
import { ParticipationRefused } from "~/server/accounts/participation";
import { AD_MESSAGES, AdError } from "~/server/ads/errors.shared";
import type { AppContext } from "~/server/context";
import { configureAppCookies } from "~/server/http/cookie-settings";
import { PostError } from "~/server/posts/errors";
import { POST_MESSAGES } from "~/server/posts/schemas";
import { ProfileError } from "~/server/profiles/errors";
import { AREA_FAILURES, failureReply, listLoader } from "./errors.server";
import { LOCKOUT_TOAST_MS } from "./toast";

// Decision 0140: one adapter from any domain error to a route's answer.

// A refusal answered elsewhere queues its toast in the signed toast cookie.
configureAppCookies({ secrets: ["errors-test-secret"], secure: false });

function fakeApp() {
  const error = vi.fn();
  return { app: { log: { error } } as unknown as AppContext, logged: error };
}

const reply = (options?: { fieldErrors?: Record<string, string[]> }) => ({
  status: "error" as const,
  error: options?.fieldErrors ?? {},
});

describe("failureReply", () => {
  it("answers one code with one status wherever it is answered: private-campus 403, not-found 404", async () => {
    const { app } = fakeApp();
    const where = { enhanced: true };
    // The composer answered private-campus with 400 and the post page with 403 (decision 0140).
    const composer = await failureReply(
      app,
      new PostError("private-campus", POST_MESSAGES.privateCommunity),
      {
        ...AREA_FAILURES.posts,
        participation: () => (where.enhanced ? { prompt: true } : null),
      },
    );
    expect(composer.init?.status).toBe(403);
    expect(composer.data.toast).toEqual({ message: POST_MESSAGES.privateCommunity, type: "danger" });
    const page = await failureReply(app, new PostError("private-campus", POST_MESSAGES.privateCommunity), {
      intent: "toggle-save",
    });
    expect(page.init?.status).toBe(403);
    expect(page.data.intent).toBe("toggle-save");
    const gone = await failureReply(app, new PostError("not-found", POST_MESSAGES.postGone));
    expect(gone.init?.status).toBe(404);
    const list = await listLoader(
      app,
      () => Promise.reject(new PostError("not-found", POST_MESSAGES.postGone)),
      {
        refused: (listError) => ({ listError }),
      },
    );
    expect(list).toMatchObject({ init: { status: 404 }, data: { listError: POST_MESSAGES.postGone } });
  });

  it("puts a message under its field when the form shows that field, else shows it as a toast", async () => {
    const { app } = fakeApp();
    const taken = new AccountError("username-taken", SETTINGS_ERRORS.usernameTaken, "username");
    const inline = await failureReply(app, taken, {
      ...AREA_FAILURES.accountSettings,
      reply,
      inlineFields: ["username"],
    });
    expect(inline.init?.status).toBe(400);
    expect(inline.data).toMatchObject({
      ok: false,
      toast: null,
      result: { error: { username: [taken.message] } },
    });
    const toasted = await failureReply(app, taken, { ...AREA_FAILURES.accountSettings, reply });
    expect(toasted.data).toMatchObject({
      toast: { message: taken.message, type: "danger" },
      result: { error: {} },
    });
  });

  it("keeps the lockout toast up longer, the posting limit's Retry-After and the alert type", async () => {
    const { app } = fakeApp();
    const locked = await failureReply(
      app,
      new AccountError("too-many-requests", ACCOUNT_MESSAGES.tooManyRequests),
    );
    expect(locked.data.toast).toMatchObject({ durationMs: LOCKOUT_TOAST_MS });
    const limited = await failureReply(app, new PostError("rate-limited", "Slow down.", "okay", 20));
    expect(limited.init?.status).toBe(429);
    expect(new Headers(limited.init?.headers).get("Retry-After")).toBe("20");
    expect(limited.data.toast).toEqual({ message: "Slow down.", type: "okay" });
  });

  it("sends a participation refusal where the route says: its prompt, its page, or a toast", async () => {
    const { app } = fakeApp();
    const signIn = new ParticipationRefused({ kind: "sign-in", reason: "post" });
    const prompt = await failureReply(app, signIn, { participation: () => ({ prompt: true }) });
    expect(prompt.init?.status).toBe(401);
    expect(prompt.data).toEqual({ ok: false, refusal: { kind: "sign-in", reason: "post" } });
    let thrown: unknown;
    try {
      await failureReply(app, signIn, { participation: () => ({ redirect: "/user_registration" }) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/user_registration");
    const school = await failureReply(app, new ParticipationRefused({ kind: "verify-school" }), {
      participation: () => null,
    });
    expect(school.init?.status).toBe(403);
    expect(school.data.toast?.type).toBe("danger");
  });

  it("answers a suspension as a toast with its link, never a prompt nor a page elsewhere (decision 0547)", async () => {
    const { app } = fakeApp();
    const until = new Date("2026-12-01T15:00:00.000Z");
    const suspended = new ParticipationRefused({ kind: "suspended", until });
    const answer = await failureReply(app, suspended, { participation: () => ({ prompt: true }) });
    expect(answer.init?.status).toBe(403);
    expect(answer.data.refusal).toBeUndefined();
    expect(answer.data.toast).toEqual({
      message: "Your account is suspended until December 1, 2026 at 3:00 PM UTC",
      type: "danger",
      durationMs: 7800,
      link: { to: "/settings/account/standing", label: "See your standing" },
    });
  });

  it("logs an unexpected error and answers the area's 'Something went wrong' with 500, or rethrows it", async () => {
    const { app, logged } = fakeApp();
    const bug = new Error("connection refused at 10.0.0.3");
    const settings = await failureReply(app, bug, { ...AREA_FAILURES.accountSettings, reply });
    expect(settings.init?.status).toBe(500);
    expect(settings.data.toast?.message).toBe(SETTINGS_ERRORS.somethingWentWrong);
    expect((await failureReply(app, bug, AREA_FAILURES.account)).data.toast?.message).toBe(
      ACCOUNT_MESSAGES.somethingWentWrong,
    );
    expect((await failureReply(app, bug, AREA_FAILURES.posts)).data.toast?.message).toBe(
      POST_MESSAGES.somethingWentWrong,
    );
    expect(logged).toHaveBeenCalledTimes(3);
    // Without a fallback the route's ErrorBoundary answers it.
    await expect(failureReply(app, bug, { intent: "delete-post" })).rejects.toThrow(bug);
    await expect(listLoader(app, () => Promise.reject(bug))).rejects.toThrow(bug);
  });

  it("answers a profile refusal with its message and status", async () => {
    const { app } = fakeApp();
    const missing = await failureReply(app, new ProfileError("user-not-found", "This user doesn't exist."), {
      intent: "edit-profile",
    });
    expect(missing.init?.status).toBe(400);
    expect(missing.data).toMatchObject({ intent: "edit-profile", ok: false, toast: { type: "danger" } });
  });

  it("answers a plain form's field under it, sends a refusal elsewhere, or to the page's ErrorBoundary", async () => {
    const { app, logged } = fakeApp();
    // The ads pages (decision 0490): the boost form shows its fields' messages without Conform.
    const website = new AdError("invalid-input", AD_MESSAGES.websiteRequired, { field: "websiteUrl" });
    const inline = await failureReply(app, website, { ...AREA_FAILURES.ads, inlineFields: ["websiteUrl"] });
    expect(inline.init?.status).toBe(400);
    expect(inline.data).toEqual({
      ok: false,
      fieldError: { field: "websiteUrl", message: AD_MESSAGES.websiteRequired },
      toast: null,
    });
    const declined = new AdError("payment-failed", AD_MESSAGES.cardDeclined, { field: "card" });
    const toasted = await failureReply(app, declined, { ...AREA_FAILURES.ads, intent: "pay-checkout" });
    expect(toasted.data).toEqual({
      ok: false,
      intent: "pay-checkout",
      toast: { message: AD_MESSAGES.cardDeclined, type: "danger" },
    });
    // spec 2 §4: a post already boosted goes back to the post, its message a toast there.
    const boosted = new AdError("already-boosted", AD_MESSAGES.alreadyBoosted, { alertType: "okay" });
    const elsewhere = (error: { code: string }) => (error.code === "already-boosted" ? "/post/p1" : null);
    const redirected = await failureReply(app, boosted, { ...AREA_FAILURES.ads, elsewhere }).catch(
      (error: unknown) => error,
    );
    expect(redirected).toBeInstanceOf(Response);
    expect((redirected as Response).headers.get("Location")).toBe("/post/p1");
    expect((redirected as Response).headers.get("Set-Cookie")).toContain("cbs_toast=");
    // Another refusal is answered here even with `elsewhere`.
    const paused = new AdError("illegal-transition", AD_MESSAGES.onlyActiveCanPause);
    expect((await failureReply(app, paused, { ...AREA_FAILURES.ads, elsewhere })).data.toast?.message).toBe(
      AD_MESSAGES.onlyActiveCanPause,
    );
    // A checkout that is not there is the 404 page, as the loader's.
    const gone = await failureReply(app, new AdError("not-found", AD_MESSAGES.adNotFound), {
      ...AREA_FAILURES.ads,
      pageRefusals: ["not-found"],
    }).catch((error: unknown) => error);
    expect(gone).toMatchObject({ data: AD_MESSAGES.adNotFound, init: { status: 404 } });
    // spec 2 §8: the ads pages' 'Something went wrong' for a bug, logged.
    const bug = await failureReply(app, new Error("stripe exploded"), AREA_FAILURES.ads);
    expect(bug.init?.status).toBe(500);
    expect(bug.data.toast).toEqual({ message: AD_MESSAGES.somethingWentWrong, type: "danger" });
    expect(logged).toHaveBeenCalledWith(expect.anything(), "ads action failed");
  });
});

describe("listLoader", () => {
  const privateCampus = () => new PostError("private-campus", POST_MESSAGES.privateCommunity);
  const badCursor = () => new PostError("invalid-input", POST_MESSAGES.badCursor);

  it("answers what the load answers", async () => {
    const { app } = fakeApp();
    expect(await listLoader(app, async () => ({ page: [1, 2] }))).toEqual({ page: [1, 2] });
  });

  it("shows a visitor of a private campus its gate with 200, or refuses it like any refusal without one", async () => {
    const { app } = fakeApp();
    const gate = await listLoader(app, () => Promise.reject(privateCampus()), {
      privateGate: () => ({ privateGate: true }),
      refused: (listError) => ({ listError }),
    });
    expect(gate).toMatchObject({ data: { privateGate: true } });
    expect((gate as { init?: ResponseInit }).init?.status ?? 200).toBe(200);
    const refused = await listLoader(app, () => Promise.reject(privateCampus()), {
      refused: (listError) => ({ listError }),
    });
    expect(refused).toMatchObject({
      data: { listError: POST_MESSAGES.privateCommunity },
      init: { status: 403 },
    });
  });

  it("shows a refusal's message in place of the list, or throws it to the ErrorBoundary", async () => {
    const { app } = fakeApp();
    const shown = await listLoader(app, () => Promise.reject(badCursor()), {
      privateGate: () => ({ privateGate: true }),
      refused: (listError) => ({ page: null, listError }),
    });
    expect(shown).toMatchObject({
      data: { page: null, listError: POST_MESSAGES.badCursor },
      init: { status: 400 },
    });
    const thrown = await listLoader(app, () => Promise.reject(badCursor()), {
      privateGate: () => ({ privateGate: true }),
    }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ data: POST_MESSAGES.badCursor, init: { status: 400 } });
  });

  it("redirects a participation refusal or a refusal answered elsewhere", async () => {
    const { app } = fakeApp();
    const verify = await listLoader(
      app,
      () => Promise.reject(new ParticipationRefused({ kind: "verify-email" })),
      { participation: (refusal) => (refusal.kind === "verify-email" ? { redirect: "/verify" } : null) },
    ).catch((error: unknown) => error);
    expect((verify as Response).headers.get("Location")).toBe("/verify");
    const boosted = await listLoader(
      app,
      () => Promise.reject(new AdError("already-boosted", AD_MESSAGES.alreadyBoosted, { alertType: "okay" })),
      { elsewhere: () => "/post/p1" },
    ).catch((error: unknown) => error);
    expect((boosted as Response).headers.get("Location")).toBe("/post/p1");
    expect((boosted as Response).headers.get("Set-Cookie")).toContain("cbs_toast=");
  });

  it("rethrows an unexpected error, or logs it and shows the page's fallback with 500", async () => {
    const { app, logged } = fakeApp();
    const bug = new Error("connection refused at 10.0.0.3");
    await expect(
      listLoader(app, () => Promise.reject(bug), { refused: (listError) => ({ listError }) }),
    ).rejects.toBe(bug);
    expect(logged).not.toHaveBeenCalled();
    const shown = await listLoader(app, () => Promise.reject(bug), {
      refused: (listError) => ({ listError }),
      fallback: "Something went wrong.",
      logMessage: "notifications could not be loaded",
    });
    expect(shown).toMatchObject({ data: { listError: "Something went wrong." }, init: { status: 500 } });
    expect(logged).toHaveBeenCalledWith({ err: bug }, "notifications could not be loaded");
    // A thrown answer (a redirect the load made) passes through untouched.
    const redirect = new Response(null, { status: 302, headers: { Location: "/post/p1" } });
    await expect(
      listLoader(app, () => Promise.reject(redirect), { fallback: "x", refused: () => 1 }),
    ).rejects.toBe(redirect);
  });
});
