import { data, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { CARD, ConsoleTime, shortDuration } from "~/app/components/admin/console-time";
import { pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import { CONSOLE_MESSAGES } from "~/server/admin/console.shared";
import { getJobsPage, type JobStatus, runJobNow } from "~/server/admin/jobs";
import { requireSiteAdmin } from "~/server/staff/roles";
import type { Route } from "./+types/jobs";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Jobs · Console", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0552: site admins only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const app = args.context.app;
  const jobs = await orNotFound(getJobsPage(app, viewer));
  return data({ jobs, now: app.clock.now() });
}

const JOB_INTENTS = z.enum(["run-job"]);
const FAILURES = { fallback: CONSOLE_MESSAGES.somethingWentWrong, logMessage: "console: run now failed" };

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, JOB_INTENTS);
  const { job } = formFields(form);
  try {
    const run = await orNotFound(runJobNow(app, viewer, { job: typeof job === "string" ? job : "" }));
    const toast: ToastInput =
      run.outcome === "succeeded"
        ? { message: `${run.job} ran and succeeded.`, type: "okay" }
        : { message: `${run.job} ran and failed: ${run.error ?? "no message"}`, type: "danger" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, ...FAILURES });
  }
}

function every(ms: number): string {
  if (ms < 60_000) return `every ${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `every ${Math.round(ms / 60_000)} min`;
  return `every ${Math.round(ms / 3_600_000)} h`;
}

/** /admin/jobs (decision 0552): each periodic job, its last runs, its next run, and 'Run now'. */
export default function Jobs({ loaderData }: Route.ComponentProps) {
  const { jobs, now } = loaderData;
  const loading = useNavigation().state === "loading";
  return (
    <article
      aria-labelledby="jobs-title"
      aria-busy={loading || undefined}
      className="flex min-w-0 flex-col gap-4"
    >
      <ConsoleNav />
      <header>
        <h1 id="jobs-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Jobs
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          The site's periodic work. Runs are kept 7 days. Run now runs a job once in this server process.
        </p>
      </header>
      {jobs.length === 0 ? (
        <p className={`${CARD} text-[15px] text-zinc-600`}>No periodic job runs in this server.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {jobs.map((job) => (
            <JobCard key={job.name} job={job} now={now} />
          ))}
        </ul>
      )}
    </article>
  );
}

function JobCard({ job, now }: { job: JobStatus; now: Date }) {
  const run = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(run.data?.toast);
  const busy = run.state !== "idle" || job.running;
  return (
    <li className={CARD} aria-labelledby={`job-${job.name}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`job-${job.name}`} className="font-mono text-base font-semibold break-all text-zinc-900">
            {job.name}
          </h2>
          <p className="text-sm text-zinc-500">
            {every(job.everyMs)} ·{" "}
            {job.runsIn === "one-process" ? "one process at a time" : "in every process"}
          </p>
        </div>
        <run.Form method="post">
          <input type="hidden" name="intent" value="run-job" />
          <input type="hidden" name="job" value={job.name} />
          <button
            type="submit"
            disabled={busy}
            aria-label={`Run now: ${job.name}`}
            className="rounded-full border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:text-zinc-400"
          >
            {busy ? "Running…" : "Run now"}
          </button>
        </run.Form>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Fact label="Last start">
          <ConsoleTime date={job.lastStart} fallback="Never" />
          {job.lastOutcome ? ` · ${job.lastOutcome}` : ""}
        </Fact>
        <Fact label="Last success">
          <ConsoleTime date={job.lastSuccess} fallback="Never" />
          {job.stalled ? <span className="ml-1 font-semibold text-amber-700">· stalled</span> : null}
        </Fact>
        <Fact label="Next run">
          {job.nextRun ? (
            <>
              <ConsoleTime date={job.nextRun} /> (in {shortDuration(job.nextRun.getTime() - now.getTime())})
            </>
          ) : (
            "Due"
          )}
        </Fact>
        <Fact label="Last error">
          {job.lastError ? (
            <>
              <ConsoleTime date={job.lastError.at} />:{" "}
              <span className="break-words">{job.lastError.message}</span>
            </>
          ) : (
            "None in 7 days"
          )}
        </Fact>
      </dl>
    </li>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="text-zinc-900">{children}</dd>
    </div>
  );
}
