import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, AccountError } from "./accounts/errors.shared";
import { ParticipationRefused } from "./accounts/participation";
import { DomainError, describeFailure, isDomainError } from "./errors.shared";
import { PostError } from "./posts/errors";
import { POST_MESSAGES } from "./posts/schemas";
import { ProfileError } from "./profiles/errors";

// Decision 0140: every area's refusal is a DomainError carrying its own answer.

describe("domain errors", () => {
  it("carry code, status, message, alert type and field, whatever their area", () => {
    const taken = new AccountError("email-taken", ACCOUNT_MESSAGES.emailTaken, "email");
    expect(taken).toMatchObject({ code: "email-taken", status: 400, alertType: "danger", field: "email" });
    const tooMany = new PostError("too-many-files", POST_MESSAGES.tooManyFiles, "okay");
    expect(tooMany).toMatchObject({ status: 400, alertType: "okay", message: POST_MESSAGES.tooManyFiles });
    expect(new ProfileError("invalid-input", "Bio must be 160 characters or fewer.", "bio").field).toBe(
      "bio",
    );
    for (const error of [taken, tooMany, new ParticipationRefused({ kind: "verify-email" })]) {
      expect(isDomainError(error)).toBe(true);
      expect(error).toBeInstanceOf(DomainError);
    }
  });

  it("give one code one status in every area: private-campus 403, not-found 404, rate-limited 429", () => {
    expect(new PostError("private-campus", POST_MESSAGES.privateCommunity).status).toBe(403);
    expect(new PostError("not-found", POST_MESSAGES.postGone).status).toBe(404);
    expect(new PostError("other-campus", POST_MESSAGES.otherCampus).status).toBe(403);
    expect(new PostError("rate-limited", "Slow down.", "danger", 60).headers).toEqual({
      "Retry-After": "60",
    });
    expect(new AccountError("not-claimable", ACCOUNT_MESSAGES.notClaimable).status).toBe(404);
    expect(new ParticipationRefused({ kind: "sign-in", reason: "like" }).status).toBe(401);
    expect(new ParticipationRefused({ kind: "profile-incomplete" }).status).toBe(403);
  });

  it("describe an unexpected error as a 500 with the area's message, never its own text", () => {
    const failure = describeFailure(
      new Error('relation "posts" does not exist'),
      POST_MESSAGES.somethingWentWrong,
    );
    expect(failure).toMatchObject({ error: null, status: 500, message: POST_MESSAGES.somethingWentWrong });
  });
});
