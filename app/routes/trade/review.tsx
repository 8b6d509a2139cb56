import { Form, Link } from "react-router";
import { z } from "zod";
import { pageTitle } from "~/app/components/shell/campus";
import { ReviewCard } from "~/app/components/trade/review-card";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { failureReply, listLoader, submitForm } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { getDealReviewPage } from "~/server/trade/review-reads";
import {
  REVIEW_MESSAGES,
  REVIEW_TAG_LABELS,
  REVIEW_TAGS,
  REVIEW_TEXT_MAX,
  writeReviewSchema,
} from "~/server/trade/review-rules.shared";
import { replyToReview, writeReview } from "~/server/trade/reviews";
import type { Route } from "./+types/review";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * Decision 0618 '/deals/{dealId}/review': the review form of a completed deal, for its two people
 * only (anyone else: 404), and, once published, the other's review of the viewer.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireVerifiedUser(args);
  const { app } = args.context;
  return listLoader(app, async () => ({
    page: await getDealReviewPage(app, viewer, args.params.dealId),
    username: viewer.username,
  }));
}

const REVIEW_INTENTS = z.enum(["write-review", "reply-review"]);
const FAILURES = { fallback: REVIEW_MESSAGES.somethingWentWrong, logMessage: "review action failed" };

export async function action(args: Route.ActionArgs) {
  const viewer = await requireVerifiedUser(args);
  const { app } = args.context;
  const dealId = args.params.dealId;
  const form = await readForm(args.request);
  const intent = readIntent(form, REVIEW_INTENTS);
  const here = `/deals/${encodeURIComponent(dealId)}/review`;
  if (intent === "reply-review") {
    try {
      await replyToReview(app, viewer, formFields(form) as { reviewId: string; reply: string });
    } catch (error) {
      return failureReply(app, error, { ...FAILURES, intent });
    }
    return redirectWithToast(here, { message: REVIEW_MESSAGES.replySent, type: "okay" });
  }
  return submitForm(
    app,
    form,
    writeReviewSchema,
    async (value) => {
      await writeReview(app, viewer, { ...value, dealId });
      return redirectWithToast(here, { message: REVIEW_MESSAGES.reviewSent, type: "okay" });
    },
    { failures: FAILURES, inlineFields: ["stars", "tags", "publicText", "privateNote"], intent },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Review your trade", matches[0]?.loaderData?.campus) }];
}

export default function ReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, username } = loaderData;
  useActionToast(actionData && "toast" in actionData ? actionData.toast : null);
  const otherName = `${page.other.firstName} ${page.other.lastName}`.trim();
  const errors = actionData && "result" in actionData ? (actionData.result?.error ?? {}) : {};
  const errorOf = (field: string) => errors[field]?.[0] ?? null;
  const tags = REVIEW_TAGS[page.otherRole];
  const here = `/deals/${page.dealId}/review`;
  return (
    <div className="flex flex-col gap-3">
      <section
        aria-labelledby="review-title"
        className="rounded-2xl border border-zinc-200 bg-white px-4 py-5 sm:px-6"
      >
        <h1 id="review-title" className="text-xl font-extrabold tracking-tight text-zinc-950">
          {`Review ${otherName}`}
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          {`${page.postTitle ? `${page.postTitle} · ` : ""}`}
          <Link to={`/${page.other.username}`} className="font-semibold text-brand-700 hover:underline">
            {`@${page.other.username}`}
          </Link>
          {` was the ${page.otherRole}.`}
        </p>
        {page.canWrite ? (
          <ReviewForm
            postTo={here}
            dealId={page.dealId}
            otherName={page.other.firstName}
            tags={tags}
            errorOf={errorOf}
            windowEndsAt={page.windowEndsAt}
          />
        ) : page.mine ? (
          <p className="mt-4 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700">
            {page.theirs || !page.theirsHidden
              ? "You reviewed this trade."
              : "You reviewed this trade. Your review is shown once both have written or 14 days have passed."}
          </p>
        ) : page.refusal ? (
          <p className="mt-4 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700">{page.refusal}</p>
        ) : null}
      </section>
      {page.theirsHidden ? (
        <p className="rounded-2xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          {REVIEW_MESSAGES.hiddenUntilYours}
        </p>
      ) : null}
      {page.theirs ? (
        <section
          aria-label={`${otherName}'s review of you`}
          className="rounded-2xl border border-zinc-200 bg-white"
        >
          <h2 className="px-4 pt-4 text-base font-bold">{`${otherName}'s review of you`}</h2>
          <ReviewCard review={page.theirs} replyAction={here} reportAction={`/${username}`} />
        </section>
      ) : null}
      {page.mine ? (
        <section aria-label="Your review" className="rounded-2xl border border-zinc-200 bg-white">
          <h2 className="px-4 pt-4 text-base font-bold">Your review</h2>
          <ReviewCard review={page.mine} replyAction={here} reportAction={`/${username}`} />
        </section>
      ) : null}
    </div>
  );
}

function ReviewForm({
  postTo,
  dealId,
  otherName,
  tags,
  errorOf,
  windowEndsAt,
}: {
  postTo: string;
  dealId: string;
  otherName: string;
  tags: readonly (keyof typeof REVIEW_TAG_LABELS)[];
  errorOf: (field: string) => string | null;
  windowEndsAt: string | null;
}) {
  const starsError = errorOf("stars");
  const tagsError = errorOf("tags");
  const textError = errorOf("publicText");
  const noteError = errorOf("privateNote");
  return (
    <Form method="post" action={postTo} className="mt-4 flex flex-col gap-5" noValidate>
      <input type="hidden" name="intent" value="write-review" />
      <input type="hidden" name="dealId" value={dealId} />
      {windowEndsAt ? (
        <p className="text-sm text-zinc-600">
          {`Reviews are blind: ${otherName} sees yours once both of you have written, or on ${new Date(
            windowEndsAt,
          ).toLocaleDateString("en-US", {
            month: "short",
            day: "numeric",
            timeZone: "UTC",
          })}. A published review can't be edited.`}
        </p>
      ) : null}
      <fieldset aria-describedby={starsError ? "stars-error" : undefined}>
        <legend className="text-sm font-medium text-zinc-800">Stars</legend>
        <div className="mt-1 flex gap-1">
          {[1, 2, 3, 4, 5].map((value) => (
            <label key={value} className="cursor-pointer">
              <input type="radio" name="stars" value={value} className="peer sr-only" required />
              <span className="flex h-11 min-w-11 items-center justify-center rounded-full border border-zinc-300 px-3 text-base font-semibold text-zinc-700 peer-checked:border-amber-500 peer-checked:bg-amber-50 peer-checked:text-amber-700 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600">
                {`${value} ★`}
              </span>
            </label>
          ))}
        </div>
        {starsError ? (
          <p id="stars-error" className="mt-1 text-sm text-red-600">
            {starsError}
          </p>
        ) : null}
      </fieldset>
      <fieldset aria-describedby={tagsError ? "tags-error" : undefined}>
        <legend className="text-sm font-medium text-zinc-800">Tags (up to three)</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <label key={tag} className="cursor-pointer">
              <input type="checkbox" name="tags" value={tag} className="peer sr-only" />
              <span className="inline-flex h-10 items-center rounded-full border border-zinc-300 px-3 text-sm font-medium text-zinc-700 peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-checked:text-brand-700 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600">
                {REVIEW_TAG_LABELS[tag]}
              </span>
            </label>
          ))}
        </div>
        {tagsError ? (
          <p id="tags-error" className="mt-1 text-sm text-red-600">
            {tagsError}
          </p>
        ) : null}
      </fieldset>
      <TextArea
        name="publicText"
        label="Your review (public)"
        hint={`Up to ${REVIEW_TEXT_MAX} characters.`}
        error={textError}
      />
      <TextArea
        name="privateNote"
        label={`Private note to ${otherName} (optional)`}
        hint={`Only ${otherName} sees it, under 'Things to improve'.`}
        error={noteError}
      />
      <Button type="submit" className="self-start">
        Send review
      </Button>
    </Form>
  );
}

function TextArea({
  name,
  label,
  hint,
  error,
}: {
  name: string;
  label: string;
  hint: string;
  error: string | null;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={name} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <textarea
        id={name}
        name={name}
        rows={3}
        maxLength={REVIEW_TEXT_MAX}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${name}-hint${error ? ` ${name}-error` : ""}`}
        className={`rounded-lg border px-3 py-2 text-base ${error ? "border-red-500" : "border-zinc-300"}`}
      />
      <p id={`${name}-hint`} className="text-xs text-zinc-500">
        {hint}
      </p>
      {error ? (
        <p id={`${name}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
