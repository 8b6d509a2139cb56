import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { CARD, ConsoleTime, shortDuration } from "~/app/components/admin/console-time";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import {
  CONSOLE_MESSAGES,
  MAIL_STATE_LABELS,
  MAIL_STATES,
  type MailState,
} from "~/server/admin/console.shared";
import { type ConsoleMail, getMailHistory, getMailPage, readMailState, retryMail } from "~/server/admin/mail";
import { requireSiteAdmin } from "~/server/staff/roles";
import type { Route } from "./+types/mail";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Mail · Console", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0553: site admins only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const app = args.context.app;
  const params = new URL(args.request.url).searchParams;
  const page = await orNotFound(
    getMailPage(app, viewer, {
      state: readMailState(params.get("state")),
      cursor: params.get("cursor")?.slice(0, 200) || null,
    }),
  );
  return data({ ...page, now: app.clock.now() });
}

const MAIL_INTENTS = z.enum(["retry-mail", "find-history"]);
const FAILURES = { fallback: CONSOLE_MESSAGES.somethingWentWrong, logMessage: "console: mail action failed" };

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, MAIL_INTENTS);
  const { mailId, who } = formFields(form);
  try {
    if (intent === "find-history") {
      const history = await orNotFound(
        getMailHistory(app, viewer, { who: typeof who === "string" ? who : "" }),
      );
      return data({ ok: true as const, intent, history, toast: null });
    }
    await orNotFound(retryMail(app, viewer, { mailId: typeof mailId === "string" ? mailId : "" }));
    const toast: ToastInput = { message: CONSOLE_MESSAGES.mailRetried, type: "okay" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: ["who"], ...FAILURES });
  }
}

/**
 * /admin/mail (decision 0553): the outbox by state with the oldest queued mail's wait, each state's
 * mails newest first (subjects and recipients, never bodies), a student's history, Retry.
 */
export default function Mail({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, state, mails, nextCursor, oldestQueuedSince, now } = loaderData;
  const loading = useNavigation().state === "loading";
  const history = actionData && "history" in actionData ? actionData.history : null;
  const historyError =
    actionData && actionData.intent === "find-history" && "fieldError" in actionData
      ? (actionData.fieldError?.message ?? null)
      : null;
  const finding = useSubmitting("find-history");
  const retryToast = actionData?.intent === "retry-mail" ? actionData.toast : null;
  useActionToast(actionData?.intent === "find-history" ? actionData.toast : null);
  return (
    <article
      aria-labelledby="mail-title"
      aria-busy={loading || undefined}
      className="flex min-w-0 flex-col gap-4"
    >
      <ConsoleNav />
      <header>
        <h1 id="mail-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Mail
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          {oldestQueuedSince ? (
            <>
              The oldest queued mail has waited {shortDuration(now.getTime() - oldestQueuedSince.getTime())}{" "}
              (since <ConsoleTime date={oldestQueuedSince} />
              ).
            </>
          ) : (
            "No mail is waiting to be sent."
          )}
        </p>
      </header>
      <NoScriptMessage toast={retryToast} />

      <nav aria-label="Mail by state" className="-mx-1 overflow-x-auto">
        <ul className="flex min-w-max gap-1 px-1 pb-1">
          {MAIL_STATES.map((candidate) => (
            <li key={candidate}>
              <Link
                to={`/admin/mail?state=${candidate}`}
                aria-current={candidate === state ? "page" : undefined}
                className={`block rounded-full px-3 py-1.5 text-sm font-medium ${
                  candidate === state
                    ? "bg-zinc-900 text-white"
                    : "border border-zinc-200 text-zinc-700 hover:bg-zinc-100"
                }`}
              >
                {MAIL_STATE_LABELS[candidate]} <span className="tabular-nums">{counts[candidate]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="list-title" className={CARD}>
        <h2 id="list-title" className="text-lg font-bold text-zinc-900">
          {MAIL_STATE_LABELS[state]} mail
        </h2>
        {mails.length === 0 ? (
          <p className="mt-2 text-[15px] text-zinc-600">No {MAIL_STATE_LABELS[state].toLowerCase()} mail.</p>
        ) : (
          <ul className="-mx-4 mt-2 divide-y divide-zinc-100 md:-mx-6">
            {mails.map((mail) => (
              <MailRow key={mail.id} mail={mail} />
            ))}
          </ul>
        )}
        {nextCursor ? (
          <Link
            to={`/admin/mail?state=${state}&cursor=${encodeURIComponent(nextCursor)}`}
            className="mt-3 inline-block text-sm font-semibold text-brand-700 underline underline-offset-2"
          >
            Older mail
          </Link>
        ) : null}
      </section>

      <section aria-labelledby="history-title" className={CARD}>
        <h2 id="history-title" className="text-lg font-bold text-zinc-900">
          A student's mail
        </h2>
        <p className="mt-1 text-sm text-zinc-600">Subjects only: bodies hold codes and sign-in links.</p>
        <Form method="post" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="find-history" />
          <Field
            label="E-mail or username"
            name="who"
            maxLength={254}
            autoComplete="off"
            required
            error={historyError}
            className="min-w-0 flex-1"
          />
          <Button type="submit" processing={finding} className="sm:mt-6">
            Find
          </Button>
        </Form>
        <div aria-live="polite">
          {history ? (
            <div className="mt-4">
              <h3 className="text-sm font-semibold text-zinc-700">
                {history.username ? `@${history.username} · ` : ""}
                {history.email}: {history.mails.length === 0 ? "no mail" : `${history.mails.length} latest`}
              </h3>
              <ul className="-mx-4 mt-1 divide-y divide-zinc-100 md:-mx-6">
                {history.mails.map((mail) => (
                  <MailRow key={mail.id} mail={mail} showState />
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </section>
    </article>
  );
}

function MailRow({ mail, showState = false }: { mail: ConsoleMail; showState?: boolean }) {
  const retry = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(retry.data?.toast);
  const retried = retry.data?.toast?.type === "okay";
  return (
    <li className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-start sm:gap-3 md:px-6">
      <div className="min-w-0 flex-1">
        <p className="font-semibold break-words text-zinc-900">{mail.subject}</p>
        <p className="text-sm break-all text-zinc-600">
          To {mail.to} · {mail.kind} · {mail.campusId}
        </p>
        <p className="text-xs text-zinc-500">
          {showState ? `${MAIL_STATE_LABELS[mail.status as MailState]} · ` : ""}
          Queued <ConsoleTime date={mail.createdAt} />
          {mail.sentAt ? (
            <>
              {" "}
              · sent <ConsoleTime date={mail.sentAt} />
            </>
          ) : null}
          {mail.attempts > 0 ? ` · ${mail.attempts} ${mail.attempts === 1 ? "attempt" : "attempts"}` : ""}
        </p>
        {mail.reason ? <p className="mt-1 text-sm break-words text-red-700">{mail.reason}</p> : null}
      </div>
      {mail.status === "failed" && !retried ? (
        <retry.Form method="post" className="shrink-0">
          <input type="hidden" name="intent" value="retry-mail" />
          <input type="hidden" name="mailId" value={mail.id} />
          <button
            type="submit"
            disabled={retry.state !== "idle"}
            aria-label={`Retry the mail “${mail.subject}” to ${mail.to}`}
            className="rounded-full border border-zinc-300 px-4 py-1.5 text-sm font-semibold hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:text-zinc-400"
          >
            {retry.state !== "idle" ? "Retrying…" : "Retry"}
          </button>
        </retry.Form>
      ) : null}
      {retried ? <p className="shrink-0 text-sm font-semibold text-green-700">Queued again</p> : null}
    </li>
  );
}
