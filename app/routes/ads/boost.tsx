import { useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast } from "~/app/components/ui/action-feedback";
import { BackButton } from "~/app/components/ui/back-button";
import { Button, buttonClass } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { REPLACE_HISTORY } from "~/app/lib/ads.server";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { AREA_FAILURES, type FailureData, failureReply, listLoader } from "~/app/lib/errors.server";
import { formFields, readForm } from "~/app/lib/form.server";
import { useHydrated } from "~/app/lib/hydrated";
import { getViewer } from "~/app/lib/viewer.server";
import { assertPostBoostable, boostPost } from "~/server/ads/boost";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import { getBoostReach } from "~/server/ads/reach";
import {
  AD_GOALS,
  type AdGoal,
  boostSchema,
  CTA_LABELS,
  DAILY_PRICE_CENTS,
  DEFAULT_DAYS,
  formatUsd,
  GOAL_TEXT,
  MAX_DAYS,
  MIN_DAYS,
  RUN_UNTIL_PAUSE_DAYS,
  TITLE_MAX,
  WEBSITE_MAX,
} from "~/server/ads/schemas.shared";
import { isListing } from "~/server/posts/listing.shared";
import { getPost } from "~/server/posts/posts";
import type { Route } from "./+types/boost";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Boost Post", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/**
 * spec 2 §2 '/post/{id}/boost': the owner's boost set-up. Signed out or a missing post:
 * 'Something Went Wrong. Please logout and try again.'; a post already boosted goes back to
 * the post with 'This post is already boosted' (spec 2 §4).
 */
export async function loader(args: Route.LoaderArgs) {
  const { params, context } = args;
  const viewer = await getViewer(args);
  const ref = { postId: params.id, campusId: context.campus.id };
  const refused = await listLoader(
    context.app,
    async () => {
      await assertPostBoostable(context.app.db, viewer, ref);
      return null;
    },
    {
      elsewhere: alreadyBoosted(params.id),
      refused: (message) => ({ state: "refused" as const, message }),
    },
  );
  if (refused) return refused;
  const [post, reach] = await Promise.all([
    getPost(context.app, viewer, ref),
    getBoostReach(context.app, context.campus.id),
  ]);
  if (!post) return data({ state: "refused" as const, message: AD_MESSAGES.boostRefused }, { status: 404 });
  // Decision 0466: a listing's buyers write to the seller; a student selling a fridge has no website.
  const defaultGoal: AdGoal = isListing(post.listing) ? "message" : "website";
  const firstImage = post.media.find((media) => media.kind === "image");
  return data({
    state: "ready" as const,
    post: {
      id: post.id,
      text: post.plainText.slice(0, 140),
      image: firstImage?.thumbUrl ?? firstImage?.url ?? null,
    },
    defaultGoal,
    // Decision 0466: the spec's figures only where the campus has that many people.
    reach,
    testMode: context.app.payments.provider === "test",
  });
}

/** spec 2 §4: a post already boosted goes back to the post with 'This post is already boosted'. */
function alreadyBoosted(postId: string) {
  return (error: { code: string }) => (error.code === "already-boosted" ? `/post/${postId}` : null);
}

/** The boost form's fields: a refusal about one shows under it (spec 2 §5), any other as a toast. */
const BOOST_FIELDS = Object.keys(boostSchema.shape);

/** Writes the ad in checkout and goes to pay (Stripe Checkout or the test checkout). */
export async function action(args: Route.ActionArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const form = await readForm(request);
  try {
    const { checkoutUrl } = await boostPost(
      context.app,
      viewer,
      { postId: params.id, campusId: context.campus.id },
      formFields(form),
      campusOriginOf(request, context),
    );
    // The form is done with once paying starts: the checkout takes its place in history (decision 0465).
    return redirect(checkoutUrl, REPLACE_HISTORY);
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.ads,
      inlineFields: BOOST_FIELDS,
      elsewhere: alreadyBoosted(params.id),
    });
  }
}

export default function BoostPage({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.toast);
  if (loaderData.state === "refused") {
    return (
      <div className="flex flex-col gap-3">
        <Header />
        <section role="alert" className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center">
          <p className="text-[15px] font-medium text-zinc-800">{loaderData.message}</p>
          <Link to="/home" className={buttonClass("secondary", "mt-5")}>
            Go To Feed
          </Link>
        </section>
      </div>
    );
  }
  return <BoostForm data={loaderData} errors={actionData ?? null} />;
}

function Header() {
  return (
    <div className="flex items-center gap-2">
      <BackButton />
      <h1 className="text-xl font-bold tracking-tight text-zinc-900">Boost Post</h1>
    </div>
  );
}

type Ready = Extract<Route.ComponentProps["loaderData"], { state: "ready" }>;

function BoostForm({
  data: { post, testMode, defaultGoal, reach },
  errors,
}: {
  data: Ready;
  errors: FailureData | null;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [goal, setGoal] = useState<AdGoal>(defaultGoal);
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [untilPause, setUntilPause] = useState(false);
  const fieldError = (name: string) =>
    errors?.fieldError?.field === name ? errors.fieldError.message : null;
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const total = (untilPause ? RUN_UNTIL_PAUSE_DAYS : days) * DAILY_PRICE_CENTS;
  // Without JavaScript every field shows; the server reads only the chosen goal's.
  const showWebsite = !hydrated || goal === "website";

  return (
    <div className="flex flex-col gap-3">
      <Header />
      <NoScriptMessage toast={errors?.toast} />
      <div className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-7">
        <div className="flex items-center gap-3 rounded-xl bg-zinc-50 p-3">
          {post.image ? (
            <img src={post.image} alt="" className="size-14 shrink-0 rounded-lg object-cover" />
          ) : null}
          <p className="line-clamp-2 min-w-0 text-sm text-zinc-700">{post.text || "Your post"}</p>
        </div>
        <Form method="post" className="mt-6 flex flex-col gap-6" noValidate>
          <fieldset>
            <legend className="text-sm font-semibold text-zinc-900">Goal</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-3">
              {AD_GOALS.map((value) => (
                <label
                  key={value}
                  className="flex cursor-pointer items-center gap-2 rounded-xl border border-zinc-300 px-3 py-3 text-sm font-medium text-zinc-800 has-checked:border-brand-600 has-checked:bg-brand-50"
                >
                  <input
                    type="radio"
                    name="goal"
                    value={value}
                    checked={goal === value}
                    onChange={() => setGoal(value)}
                    className="accent-brand-600"
                  />
                  {GOAL_TEXT[value]}
                </label>
              ))}
            </div>
          </fieldset>

          {showWebsite ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Website URL"
                name="websiteUrl"
                type="url"
                inputMode="url"
                placeholder="https://www.example.com"
                maxLength={WEBSITE_MAX}
                error={fieldError("websiteUrl")}
              />
              <div className="flex flex-col gap-1">
                <label htmlFor="buttonLabel" className="text-sm font-medium text-zinc-800">
                  Button label
                </label>
                <select
                  id="buttonLabel"
                  name="buttonLabel"
                  defaultValue={CTA_LABELS[0]}
                  aria-invalid={fieldError("buttonLabel") ? true : undefined}
                  aria-describedby={fieldError("buttonLabel") ? "buttonLabel-error" : undefined}
                  className="rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900"
                >
                  {CTA_LABELS.map((label) => (
                    <option key={label} value={label}>
                      {label}
                    </option>
                  ))}
                </select>
                {fieldError("buttonLabel") ? (
                  <p id="buttonLabel-error" className="text-sm text-red-600">
                    {fieldError("buttonLabel")}
                  </p>
                ) : null}
              </div>
            </div>
          ) : null}

          <Field
            label="Ad title"
            name="title"
            maxLength={TITLE_MAX}
            placeholder="e.g. Desk lamp sale"
            hint={`Up to ${TITLE_MAX} characters; only you see it, in Manage Ads.`}
            error={fieldError("title")}
          />

          <fieldset className="flex flex-col gap-3">
            <legend className="text-sm font-semibold text-zinc-900">Duration</legend>
            <div className={untilPause ? "opacity-50" : ""}>
              <label htmlFor="days" className="flex items-center justify-between text-sm text-zinc-700">
                <span>Days</span>
                <output htmlFor="days" className="font-semibold text-zinc-900">
                  {days} day{days === 1 ? "" : "s"}
                </output>
              </label>
              <input
                id="days"
                name="days"
                type="range"
                min={MIN_DAYS}
                max={MAX_DAYS}
                value={days}
                disabled={untilPause}
                onChange={(event) => setDays(Number(event.target.value))}
                className="mt-2 w-full accent-brand-600"
              />
            </div>
            <label className="flex items-center gap-2 text-sm text-zinc-800">
              <input
                type="checkbox"
                name="runUntilPause"
                checked={untilPause}
                onChange={(event) => setUntilPause(event.target.checked)}
                className="size-4 accent-brand-600"
              />
              Run until I pause it ($5 daily)
            </label>
          </fieldset>

          <section aria-label="Price" className="rounded-xl bg-zinc-50 p-4">
            <p className="text-[15px] text-zinc-800" aria-live="polite">
              {untilPause ? (
                <>
                  <strong>$5.00 daily</strong>, {formatUsd(total)} paid ahead for up to {RUN_UNTIL_PAUSE_DAYS}{" "}
                  days; the days it does not run are refunded.
                </>
              ) : (
                <>
                  $5.00 × {days} day{days === 1 ? "" : "s"} = <strong>{formatUsd(total)}</strong>
                </>
              )}
            </p>
            <p className="mt-1 text-sm text-zinc-600">
              Estimated daily reach: {untilPause ? reach.untilPause : reach.fixed}
            </p>
          </section>

          {testMode ? (
            <p className="text-sm text-amber-800">Payments are in test mode: no card is charged.</p>
          ) : null}
          <Button type="submit" processing={submitting} className="h-12 w-full">
            Pay {formatUsd(total)}
          </Button>
        </Form>
      </div>
    </div>
  );
}
