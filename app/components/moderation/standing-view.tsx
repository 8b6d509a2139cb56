import type { SubmissionResult } from "@conform-to/react";
import { getFormProps } from "@conform-to/react";
import { useId, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/app/components/ui/button";
import { useSchemaForm } from "~/app/components/ui/field";
import { appealSchema, appealText } from "~/server/moderation/appeals.shared";
import { APPEAL_RULES, APPEAL_STATUS_LABELS } from "~/server/moderation/rules.shared";

type TargetKind = "post" | "comment" | "message" | "user" | "review";

export interface StandingStrikeView {
  id: string;
  action: string;
  date: string;
  reasonLabel: string;
  publicReason: string;
  target: { kind: TargetKind; excerpt: string | null };
  overruledOn: string | null;
  appeal: { status: "pending" | "approved" | "rejected"; decisionReason: string | null; date: string } | null;
  appealUntil: string | null;
}

export interface StandingViewData {
  /** `until` null: until a moderator lifts it. */
  restriction: { until: string | null; reasonLabel: string | null; publicReason: string | null } | null;
  strikes: StandingStrikeView[];
  removed: { id: string; kind: "post" | "comment"; excerpt: string; date: string }[];
}

/** Decision 0548: the student's own content a strike concerned, in their words. */
const TARGET_WORDS: Record<TargetKind, string> = {
  post: "Your listing",
  comment: "Your comment",
  message: "Your message",
  user: "Your account",
  review: "Your review",
};

const MAX_COUNT = APPEAL_RULES.maxLength.toLocaleString("en-US");

/** /settings/account/standing's content (decision 0548). */
export function StandingView({
  standing,
  lastResult,
}: {
  standing: StandingViewData;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { restriction, strikes, removed } = standing;
  if (!restriction && strikes.length === 0 && removed.length === 0) return <GoodStanding />;
  return (
    <div className="flex flex-col gap-7">
      {restriction ? <Restriction restriction={restriction} /> : null}
      {strikes.length > 0 ? (
        <section aria-labelledby="strikes-title">
          <h2 id="strikes-title" className="text-lg font-bold text-zinc-900">
            Strikes
          </h2>
          <ul className="mt-3 flex flex-col gap-3">
            {strikes.map((strike) => (
              <StrikeCard key={strike.id} strike={strike} lastResult={lastResult} />
            ))}
          </ul>
        </section>
      ) : null}
      {removed.length > 0 ? (
        <section aria-labelledby="removed-title">
          <h2 id="removed-title" className="text-lg font-bold text-zinc-900">
            Removed posts and comments
          </h2>
          <ul className="mt-3 divide-y divide-zinc-100 rounded-xl border border-zinc-200">
            {removed.map((item) => (
              <li key={item.id} className="px-4 py-3 text-[15px]">
                <p className="text-sm text-zinc-500">
                  {item.kind === "post" ? "Listing" : "Comment"} · {item.date}
                </p>
                <p className="mt-0.5 break-words text-zinc-800">{item.excerpt || "(photos only)"}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="text-sm text-zinc-600">
        Moderators act on the{" "}
        <Link to="/settings/trust_and_safety" className="font-semibold text-brand-700 underline">
          code of conduct
        </Link>
        . Every action is listed, without names, on the{" "}
        <Link to="/modlog" className="font-semibold text-brand-700 underline">
          moderation log
        </Link>
        .
      </p>
    </div>
  );
}

function GoodStanding() {
  return (
    <div className="py-6 text-center">
      <div
        aria-hidden="true"
        className="mx-auto flex size-12 items-center justify-center rounded-full bg-emerald-50 text-2xl text-emerald-700"
      >
        ✓
      </div>
      <h2 className="mt-4 text-lg font-bold text-zinc-900">Your account is in good standing</h2>
      <p className="mx-auto mt-2 max-w-md text-[15px] text-zinc-600">
        No strikes, no restrictions and nothing removed. Thanks for keeping your campus a good place to buy
        and sell.
      </p>
      <p className="mt-4 text-sm">
        <Link to="/settings/trust_and_safety" className="font-semibold text-brand-700 underline">
          Read the code of conduct
        </Link>
      </p>
    </div>
  );
}

function Restriction({ restriction }: { restriction: NonNullable<StandingViewData["restriction"]> }) {
  return (
    <section
      aria-labelledby="restriction-title"
      className="rounded-xl bg-amber-50 px-4 py-4 ring-1 ring-amber-200"
    >
      <h2 id="restriction-title" className="text-base font-bold text-amber-950">
        {restriction.until ? `Suspended until ${restriction.until}` : "Suspended until a moderator lifts it"}
      </h2>
      {restriction.reasonLabel ? (
        <p className="mt-1 text-[15px] text-amber-950">
          <span className="font-semibold">{restriction.reasonLabel}</span>
          {restriction.publicReason ? `: ${restriction.publicReason}` : null}
        </p>
      ) : null}
      <p className="mt-2 text-sm text-amber-900">
        You can sign in, read and appeal. You cannot post, comment, message, offer, report or boost until it
        ends.
      </p>
    </section>
  );
}

function AppealStatus({ appeal }: { appeal: NonNullable<StandingStrikeView["appeal"]> }) {
  const tone = {
    pending: "bg-sky-50 text-sky-900 ring-sky-200",
    approved: "bg-emerald-50 text-emerald-900 ring-emerald-200",
    rejected: "bg-zinc-100 text-zinc-800 ring-zinc-200",
  }[appeal.status];
  return (
    <p className={`mt-3 rounded-lg px-3 py-2 text-sm ring-1 ${tone}`}>
      <span className="font-semibold">{APPEAL_STATUS_LABELS[appeal.status]}</span>
      {appeal.status === "rejected" && appeal.decisionReason ? `: ${appeal.decisionReason}` : null}
      <span className="text-xs opacity-80"> · sent {appeal.date}</span>
    </p>
  );
}

function StrikeCard({
  strike,
  lastResult,
}: {
  strike: StandingStrikeView;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const titleId = useId();
  return (
    <li aria-labelledby={titleId} className="rounded-xl border border-zinc-200 px-4 py-3.5">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h3 id={titleId} className="font-bold text-zinc-900">
          {strike.action}
        </h3>
        <span className="text-sm text-zinc-500">{strike.date}</span>
        {strike.overruledOn ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
            Overruled {strike.overruledOn}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-zinc-600">
        Reason: <span className="font-medium text-zinc-800">{strike.reasonLabel}</span>
      </p>
      <p className="mt-2 break-words text-[15px] text-zinc-900">{strike.publicReason}</p>
      <p className="mt-2 break-words text-sm text-zinc-600">
        {TARGET_WORDS[strike.target.kind]}
        {strike.target.excerpt ? <>: “{strike.target.excerpt}”</> : null}
      </p>
      {strike.appeal ? <AppealStatus appeal={strike.appeal} /> : null}
      {strike.appealUntil ? (
        <AppealForm strikeId={strike.id} until={strike.appealUntil} lastResult={lastResult} />
      ) : !strike.appeal && !strike.overruledOn ? (
        <p className="mt-3 text-sm text-zinc-500">
          The {APPEAL_RULES.windowDays} days to appeal this strike have passed.
        </p>
      ) : null}
    </li>
  );
}

function AppealForm({
  strikeId,
  until,
  lastResult,
}: {
  strikeId: string;
  until: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  // The page's one action answers whichever strike's form was sent: this form reads its own answer.
  const mine = lastResult?.initialValue?.strikeId === strikeId ? lastResult : undefined;
  const [form, fields] = useSchemaForm(appealSchema, {
    id: `appeal-${strikeId}`,
    lastResult: mine,
    validate: "onSubmit",
  });
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("strikeId") === strikeId;
  const initial = typeof fields.text.initialValue === "string" ? fields.text.initialValue : "";
  const [length, setLength] = useState(appealText(initial).length);
  const error = fields.text.errors?.[0];
  const textId = fields.text.id;
  return (
    <details open={mine !== undefined} className="group mt-3">
      <summary className="inline-flex min-h-10 cursor-pointer list-none items-center rounded-full border border-zinc-300 px-4 text-sm font-semibold text-zinc-900 hover:bg-zinc-50 group-open:hidden [&::-webkit-details-marker]:hidden">
        Appeal
      </summary>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="file-appeal" />
        <input type="hidden" name={fields.strikeId.name} value={strikeId} />
        <label htmlFor={textId} className="text-sm font-medium text-zinc-800">
          Appeal
        </label>
        <p id={`${textId}-hint`} className="text-sm text-zinc-600">
          Tell the moderators why this strike should be lifted ({APPEAL_RULES.minLength} to {MAX_COUNT}{" "}
          characters). You can appeal until {until}, once.
        </p>
        <textarea
          id={textId}
          key={fields.text.key}
          name={fields.text.name}
          defaultValue={initial}
          rows={5}
          maxLength={APPEAL_RULES.maxLength}
          onChange={(event) => setLength(appealText(event.currentTarget.value).length)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${textId}-hint ${textId}-count${error ? ` ${textId}-error` : ""}`}
          className={`resize-y rounded-lg border bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 ${error ? "border-red-500" : "border-zinc-300"}`}
        />
        <div className="flex items-start justify-between gap-3">
          <p id={`${textId}-error`} className="text-sm text-red-600">
            {error ?? ""}
          </p>
          <p
            id={`${textId}-count`}
            className={`shrink-0 text-xs tabular-nums ${length > 0 && length < APPEAL_RULES.minLength ? "text-amber-700" : "text-zinc-500"}`}
          >
            {length.toLocaleString("en-US")} / {MAX_COUNT}
            <span className="sr-only"> characters</span>
          </p>
        </div>
        <Button type="submit" processing={submitting} className="self-start">
          Send appeal
        </Button>
      </Form>
    </details>
  );
}
