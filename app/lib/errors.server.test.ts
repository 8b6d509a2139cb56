import { describe, expect, it, vi } from "vitest";
import { ACCOUNT_MESSAGES, AccountError, SETTINGS_ERRORS } from "~/server/accounts/errors";
import { ParticipationRefused } from "~/server/accounts/gates";
import type { AppContext } from "~/server/context";
import { PostError } from "~/server/posts/errors";
import { POST_MESSAGES } from "~/server/posts/schemas";
import { ProfileError } from "~/server/profiles/errors";
import { AREA_FAILURES, failureReply, listRefusal } from "./errors.server";
import { LOCKOUT_TOAST_MS } from "./toast";

// Decision 0140: one adapter from any domain error to a route's answer.

function fakeApp() {
  const error = vi.fn();
  return { app: { log: { error } } as unknown as AppContext, logged: error };
}

const reply = (options?: { fieldErrors?: Record<string, string[]> }) => ({
  status: "error" as const,
  error: options?.fieldErrors ?? {},
});

describe("failureReply", () => {
  it("answers one code with one status wherever it is answered: private-campus 403, not-found 404", () => {
    const { app } = fakeApp();
    const where = { enhanced: true };
    // The composer answered private-campus with 400 and the post page with 403 (decision 0140).
    const composer = failureReply(app, new PostError("private-campus", POST_MESSAGES.privateCommunity), {
      ...AREA_FAILURES.posts,
      participation: () => (where.enhanced ? { prompt: true } : null),
    });
    expect(composer.init?.status).toBe(403);
    expect(composer.data.toast).toEqual({ message: POST_MESSAGES.privateCommunity, type: "danger" });
    const page = failureReply(app, new PostError("private-campus", POST_MESSAGES.privateCommunity), {
      intent: "toggle-save",
    });
    expect(page.init?.status).toBe(403);
    expect(page.data.intent).toBe("toggle-save");
    const gone = failureReply(app, new PostError("not-found", POST_MESSAGES.postGone));
    expect(gone.init?.status).toBe(404);
    expect(listRefusal(new PostError("not-found", POST_MESSAGES.postGone))).toMatchObject({
      status: 404,
      listError: POST_MESSAGES.postGone,
    });
  });

  it("puts a message under its field when the form shows that field, else shows it as a toast", () => {
    const { app } = fakeApp();
    const taken = new AccountError("username-taken", SETTINGS_ERRORS.usernameTaken, "username");
    const inline = failureReply(app, taken, {
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
    const toasted = failureReply(app, taken, { ...AREA_FAILURES.accountSettings, reply });
    expect(toasted.data).toMatchObject({
      toast: { message: taken.message, type: "danger" },
      result: { error: {} },
    });
  });

  it("keeps the lockout toast up longer, the posting limit's Retry-After and the alert type", () => {
    const { app } = fakeApp();
    const locked = failureReply(app, new AccountError("too-many-requests", ACCOUNT_MESSAGES.tooManyRequests));
    expect(locked.data.toast).toMatchObject({ durationMs: LOCKOUT_TOAST_MS });
    const limited = failureReply(app, new PostError("rate-limited", "Slow down.", "okay", 20));
    expect(limited.init?.status).toBe(429);
    expect(new Headers(limited.init?.headers).get("Retry-After")).toBe("20");
    expect(limited.data.toast).toEqual({ message: "Slow down.", type: "okay" });
  });

  it("sends a participation refusal where the route says: its prompt, its page, or a toast", async () => {
    const { app } = fakeApp();
    const signIn = new ParticipationRefused({ kind: "sign-in", reason: "post" });
    const prompt = failureReply(app, signIn, { participation: () => ({ prompt: true }) });
    expect(prompt.init?.status).toBe(401);
    expect(prompt.data).toEqual({ ok: false, refusal: { kind: "sign-in", reason: "post" } });
    let thrown: unknown;
    try {
      failureReply(app, signIn, { participation: () => ({ redirect: "/user_registration" }) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/user_registration");
    const school = failureReply(app, new ParticipationRefused({ kind: "verify-school" }), {
      participation: () => null,
    });
    expect(school.init?.status).toBe(403);
    expect(school.data.toast?.type).toBe("danger");
  });

  it("logs an unexpected error and answers the area's 'Something went wrong' with 500, or rethrows it", () => {
    const { app, logged } = fakeApp();
    const bug = new Error("connection refused at 10.0.0.3");
    const settings = failureReply(app, bug, { ...AREA_FAILURES.accountSettings, reply });
    expect(settings.init?.status).toBe(500);
    expect(settings.data.toast?.message).toBe(SETTINGS_ERRORS.somethingWentWrong);
    expect(failureReply(app, bug, AREA_FAILURES.account).data.toast?.message).toBe(
      ACCOUNT_MESSAGES.somethingWentWrong,
    );
    expect(failureReply(app, bug, AREA_FAILURES.posts).data.toast?.message).toBe(
      POST_MESSAGES.somethingWentWrong,
    );
    expect(logged).toHaveBeenCalledTimes(3);
    // Without a fallback the route's ErrorBoundary answers it.
    expect(() => failureReply(app, bug, { intent: "delete-post" })).toThrow(bug);
    expect(() => listRefusal(bug)).toThrow(bug);
  });

  it("answers a profile refusal with its message and status", () => {
    const { app } = fakeApp();
    const self = failureReply(app, new ProfileError("cannot-report-self", "You can't report yourself."), {
      intent: "report-user",
    });
    expect(self.init?.status).toBe(400);
    expect(self.data).toMatchObject({ intent: "report-user", ok: false, toast: { type: "danger" } });
  });
});
