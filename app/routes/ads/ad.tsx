import { useEffect, useState } from "react";
import { data, Form, Link, useFetcher } from "react-router";
import { z } from "zod";
import { amountText, formatTimeLeft, STATUS_TONE, statText } from "~/app/components/ads/ad-format";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { BackButton } from "~/app/components/ui/back-button";
import { Button, buttonClass } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { AREA_FAILURES, type FailureData, failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { requireUser } from "~/app/lib/viewer.server";
import { AD_MESSAGES } from "~/server/ads/errors.shared";
import { pauseAd, renameAd, resumeAd, stopAd } from "~/server/ads/lifecycle";
import { TITLE_MAX } from "~/server/ads/schemas.shared";
import { getOwnAd } from "~/server/ads/views";
import type { Route } from "./+types/ad";

export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 '/ads/{adID}: ad analytics'; another user's ad or a deleted one: 'Sorry, that ad has been deleted.'. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const ad = await getOwnAd(args.context.app, viewer, args.params.adId);
  if (!ad) return data({ ad: null }, { status: 404 });
  return { ad };
}

const INTENTS = z.enum(["pause-ad", "resume-ad", "stop-ad", "rename-ad"]);

const DONE: Record<z.infer<typeof INTENTS>, ToastInput> = {
  "pause-ad": { message: AD_MESSAGES.paused, type: "success" },
  "resume-ad": { message: AD_MESSAGES.resumed, type: "success" },
  "stop-ad": { message: AD_MESSAGES.stopped, type: "success" },
  "rename-ad": { message: AD_MESSAGES.saved, type: "success" },
};

/** spec 2 §4 Pause / Resume / Stop and the title (spec 2 §5); the domain decides what may happen. */
export async function action(args: Route.ActionArgs) {
  const { params, context, request } = args;
  const viewer = await requireUser(args);
  const form = await readForm(request);
  const intent = readIntent(form, INTENTS);
  try {
    if (intent === "pause-ad") await pauseAd(context.app, viewer, params.adId);
    else if (intent === "resume-ad") await resumeAd(context.app, viewer, params.adId);
    else if (intent === "stop-ad") await stopAd(context.app, viewer, params.adId);
    else await renameAd(context.app, viewer, params.adId, formFields(form));
    return { ok: true as const, intent, toast: DONE[intent] };
  } catch (error) {
    // A refusal about the title answers under it, any other as a toast.
    return failureReply(context.app, error, { ...AREA_FAILURES.ads, intent, inlineFields: ["title"] });
  }
}

export function meta() {
  return [{ title: "Ad analytics" }];
}

export default function AdDetail({ loaderData }: Route.ComponentProps) {
  const { ad } = loaderData;
  if (!ad) {
    return (
      <section className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center">
        <h2 className="text-lg font-bold text-zinc-900">{AD_MESSAGES.adGone}</h2>
        <Link to="/ads" className={buttonClass("secondary", "mt-5")}>
          Back to Manage Ads
        </Link>
      </section>
    );
  }
  return <AdView key={ad.id} ad={ad} />;
}

type Ad = NonNullable<Route.ComponentProps["loaderData"]["ad"]>;
type Confirm = "pause-ad" | "resume-ad" | "stop-ad";

const CONFIRM: Record<Confirm, { title: string; text: string; button: string }> = {
  "pause-ad": {
    title: "Pause Ad?",
    text: "Your post stops showing as sponsored until you resume it. The time paused is added to its end.",
    button: "Pause Ad",
  },
  "resume-ad": { title: "Resume Ad?", text: "Your post shows as sponsored again.", button: "Resume Ad" },
  "stop-ad": {
    title: "Stop Ad?",
    text: "This can't be undone. The whole days it has not run are refunded to your card.",
    button: "Stop Ad",
  },
};

function AdView({ ad }: { ad: Ad }) {
  const fetcher = useFetcher<typeof action>();
  const result = fetcher.data as ({ ok: true; toast: ToastInput } | FailureData) | undefined;
  useActionToast(result?.toast);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [title, setTitle] = useState(ad.title);
  useEffect(() => {
    if (fetcher.state === "idle" && result?.ok) setConfirm(null);
  }, [fetcher.state, result]);
  const busy = fetcher.state !== "idle";
  const trimmed = title.trim();
  const stats: [string, string][] = [
    ["Views", statText(ad.statsHidden, ad.analytics.views)],
    ["Accounts reached", statText(ad.statsHidden, ad.analytics.accountsReached)],
    ["Direct messages", statText(ad.statsHidden, ad.analytics.directMessages)],
    ["Link copies", statText(ad.statsHidden, ad.analytics.copiedLink)],
    ["Website clicks", statText(ad.statsHidden, ad.analytics.externalLinkClicks)],
    ["Profile visits", statText(ad.statsHidden, ad.analytics.profileVisits)],
  ];
  return (
    <article aria-labelledby="ad-title" className="flex flex-col gap-3">
      <div className="flex items-center gap-2 lg:hidden">
        <BackButton />
        <span className="text-xl font-bold tracking-tight text-zinc-900">Ad</span>
      </div>
      <div className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="ad-title" className="min-w-0 truncate text-lg font-bold text-zinc-900">
            {ad.title || ad.postText || "Untitled ad"}
          </h2>
          <span
            className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ${STATUS_TONE[ad.status] ?? STATUS_TONE.checkout}`}
          >
            {ad.statusLabel}
          </span>
        </div>
        <p className="mt-1 line-clamp-2 text-sm text-zinc-600">{ad.postText}</p>
        <fetcher.Form method="post" className="mt-4 flex items-end gap-2">
          <input type="hidden" name="intent" value="rename-ad" />
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor="ad-title-input" className="text-sm font-medium text-zinc-800">
              Title
            </label>
            <input
              id="ad-title-input"
              name="title"
              value={title}
              maxLength={TITLE_MAX}
              onChange={(event) => setTitle(event.target.value)}
              className="rounded-lg border border-zinc-300 px-3 py-2 text-base"
            />
          </div>
          {/* spec 2 §5: 'save is disabled when empty or unchanged'. */}
          <Button type="submit" variant="secondary" disabled={trimmed === "" || trimmed === ad.title || busy}>
            Save
          </Button>
        </fetcher.Form>
        {result && !result.ok && result.fieldError?.field === "title" ? (
          <p className="mt-1 text-sm text-red-600">{result.fieldError.message}</p>
        ) : null}

        <dl className="mt-6 grid grid-cols-2 gap-3">
          <div className="rounded-xl bg-zinc-50 p-3">
            <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Time left</dt>
            <dd className="mt-1 font-semibold text-zinc-900">
              {ad.statsHidden ? "--" : formatTimeLeft(ad.timeLeftMs)}
            </dd>
          </div>
          <div className="rounded-xl bg-zinc-50 p-3">
            <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Amount spent</dt>
            <dd className="mt-1 font-semibold text-zinc-900">{amountText(ad)}</dd>
          </div>
        </dl>
        <h3 className="mt-6 text-sm font-semibold text-zinc-900">Analytics</h3>
        <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2">
          {stats.map(([label, value]) => (
            <div key={label} className="rounded-xl border border-zinc-200 p-3">
              <dt className="text-xs text-zinc-500">{label}</dt>
              <dd className="mt-1 text-xl font-bold text-zinc-900">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-zinc-500">Each person's actions count once per visit.</p>

        <div className="mt-6 flex flex-wrap gap-2">
          {ad.status === "active" ? (
            <Button variant="secondary" onClick={() => setConfirm("pause-ad")}>
              Pause Ad
            </Button>
          ) : null}
          {ad.status === "paused" ? (
            <Button variant="secondary" onClick={() => setConfirm("resume-ad")}>
              Resume Ad
            </Button>
          ) : null}
          {ad.status === "active" || ad.status === "paused" ? (
            <Button variant="danger" onClick={() => setConfirm("stop-ad")}>
              Stop Ad
            </Button>
          ) : null}
          <Link to={`/post/${ad.postId}`} className={buttonClass("ghost")}>
            View post
          </Link>
        </div>
      </div>
      {confirm ? (
        <Modal
          open
          onOpenChange={(open) => {
            if (!open) setConfirm(null);
          }}
          title={CONFIRM[confirm].title}
          description={CONFIRM[confirm].text}
          footer={
            <Form
              method="post"
              className="flex w-full gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                fetcher.submit(event.currentTarget);
              }}
            >
              <input type="hidden" name="intent" value={confirm} />
              <Button variant="secondary" className="flex-1" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant={confirm === "stop-ad" ? "danger" : "primary"}
                processing={busy}
                className="flex-1"
              >
                {CONFIRM[confirm].button}
              </Button>
            </Form>
          }
        />
      ) : null}
    </article>
  );
}
