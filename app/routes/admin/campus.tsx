import { data, Link, useFetcher } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { Badge, type ConsoleActionData, Panel, utc } from "~/app/components/admin/console-parts";
import { MeetupSpotsSection } from "~/app/components/admin/meetup-spots-section";
import { pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import {
  addCampusDomain,
  getCampusDetail,
  removeCampusDomain,
  setCampusHideThreshold,
} from "~/server/admin/campuses";
import { ADMIN_MESSAGES } from "~/server/admin/errors.shared";
import type { CampusDomainInput, HideThresholdInput } from "~/server/admin/schemas.shared";
import { logActionWords } from "~/server/moderation/rules.shared";
import { appointModerator, removeModerator } from "~/server/staff/moderators";
import { requireSiteAdmin } from "~/server/staff/roles";
import type { AppointModeratorInput } from "~/server/staff/schemas.shared";
import { getCampusSpotsForAdmin } from "~/server/trade/meetup-spots";
import type { Route } from "./+types/campus";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches, data: loaded }: Route.MetaArgs) {
  return [
    { title: pageTitle(`${loaded?.campus.name ?? "Campus"} · Campuses`, matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0562: site admins only; an unknown campus is the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  const detail = await orNotFound(getCampusDetail(args.context.app, viewer, args.params.id));
  // Decision 0610: the campus's meetup spots (their forms post to /admin/campuses/:id/spots).
  const meetupSpots = await getCampusSpotsForAdmin(args.context.app, viewer, args.params.id);
  return data({ ...detail, meetupSpots });
}

const INTENTS = z.enum([
  "add-domain",
  "remove-domain",
  "set-threshold",
  "appoint-moderator",
  "remove-moderator",
]);
const FAILURES = { fallback: ADMIN_MESSAGES.somethingWentWrong, logMessage: "console campus action failed" };

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  // The campus is the page's; the domain parses every field.
  const submitted = formFields(form);
  const fields = { ...submitted, campusId: args.params.id };
  try {
    let message: string;
    if (intent === "add-domain") {
      const { domain } = await orNotFound(addCampusDomain(app, viewer, fields as CampusDomainInput));
      message = `${domain} added.`;
    } else if (intent === "remove-domain") {
      const { domain } = await orNotFound(removeCampusDomain(app, viewer, fields as CampusDomainInput));
      message = `${domain} removed.`;
    } else if (intent === "set-threshold") {
      const { threshold } = await orNotFound(
        setCampusHideThreshold(app, viewer, fields as HideThresholdInput),
      );
      message = `Reports weighing ${threshold} now hide a post until moderators review it.`;
    } else if (intent === "appoint-moderator") {
      const appointed = await orNotFound(appointModerator(app, viewer, fields as AppointModeratorInput));
      message = `${appointed.name} now moderates ${appointed.campusName}.`;
    } else {
      const { roleId } = submitted;
      await orNotFound(removeModerator(app, viewer, { roleId: typeof roleId === "string" ? roleId : "" }));
      message = "Moderator removed.";
    }
    const toast: ToastInput = { message, type: "okay" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: ["domain", "threshold", "email"], ...FAILURES });
  }
}

const inputClass =
  "w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20";

/** A one-field form of this page, with its own fetcher and its field's message. */
function OneFieldForm({
  intent,
  name,
  label,
  submitLabel,
  type = "text",
  defaultValue,
  maxLength,
}: {
  intent: string;
  name: string;
  label: string;
  submitLabel: string;
  type?: string;
  defaultValue?: string;
  maxLength: number;
}) {
  const fetcher = useFetcher<ConsoleActionData>();
  useActionToast(fetcher.data?.toast);
  const error = fetcher.data?.fieldError?.field === name ? fetcher.data.fieldError.message : null;
  const id = `${intent}-${name}`;
  return (
    <fetcher.Form method="post" className="flex flex-col gap-1">
      <input type="hidden" name="intent" value={intent} />
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          name={name}
          type={type}
          defaultValue={defaultValue}
          maxLength={maxLength}
          required
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={inputClass}
          {...(type === "number" ? { min: 1, max: 50, step: "any" } : {})}
        />
        <Button type="submit" variant="secondary" processing={fetcher.state !== "idle"}>
          {submitLabel}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

function RemoveButton({
  intent,
  name,
  value,
  label,
}: {
  intent: string;
  name: string;
  value: string;
  label: string;
}) {
  const fetcher = useFetcher<ConsoleActionData>();
  useActionToast(fetcher.data?.toast);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={value} />
      <button
        type="submit"
        aria-label={label}
        disabled={fetcher.state !== "idle"}
        className="rounded-full border border-zinc-300 px-3 py-1 text-sm font-semibold hover:bg-zinc-50 disabled:text-zinc-400"
      >
        Remove
      </button>
    </fetcher.Form>
  );
}

/**
 * /admin/campuses/:id (decision 0562): the campus's hosts and privacy (configuration, read-only,
 * with where to change them), its school e-mail domains, moderators and report threshold (edited
 * here, each change logged), and those changes.
 */
export default function CampusPage({ loaderData }: Route.ComponentProps) {
  const { campus, moderators, changes } = loaderData;
  return (
    <article aria-labelledby="campus-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <nav>
        <Link to="/admin/campuses" className="text-sm font-semibold text-brand-700 hover:underline">
          ← Campuses
        </Link>
      </nav>
      <header>
        <h1 id="campus-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          {campus.name}
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          {campus.school} · {campus.members} members · {campus.verifiedMembers} school-verified
        </p>
      </header>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Panel title="Hosts" id="hosts-title">
          <ul className="text-sm break-all text-zinc-800">
            {campus.hosts.map((host) => (
              <li key={host}>{host}</li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-zinc-600">
            Set by the operator: CAMPUS_HOSTS (and PUBLIC_URL) in the server's environment; the .localhost
            hosts serve development. A restart applies a change.
          </p>
        </Panel>
        <Panel title="Privacy" id="privacy-title">
          <p className="text-sm">
            <Badge tone={campus.privacy === "public" ? "green" : "zinc"}>{campus.privacy}</Badge>
          </p>
          <p className="mt-2 text-sm text-zinc-600">
            Set by PUBLIC_CAMPUSES in the server's environment ('{campus.id}' in the list, or 'all', opens it
            to signed-out visitors), applied at every start.
          </p>
        </Panel>
      </div>
      <Panel title="School e-mail domains" id="domains-title">
        <p className="text-sm text-zinc-600">
          A school e-mail on one of these domains, or a subdomain of one, verifies a student for this campus.
        </p>
        <ul className="mt-2 divide-y divide-zinc-100">
          {campus.domains.map((domain) => (
            <li key={domain} className="flex items-center justify-between gap-3 py-2">
              <span className="break-all">{domain}</span>
              {campus.domains.length > 1 ? (
                <RemoveButton
                  intent="remove-domain"
                  name="domain"
                  value={domain}
                  label={`Remove ${domain}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
        <div className="mt-3">
          <OneFieldForm
            intent="add-domain"
            name="domain"
            label="Add a domain"
            submitLabel="Add"
            maxLength={253}
          />
        </div>
      </Panel>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Panel title="Moderators" id="moderators-title">
          {moderators.length === 0 ? (
            <p className="text-sm text-zinc-600">No moderator yet: reports reach the site admins.</p>
          ) : (
            <ul className="divide-y divide-zinc-100">
              {moderators.map((moderator) => (
                <li key={moderator.roleId} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0">
                    <span className="block font-medium">
                      {moderator.firstName} {moderator.lastName}
                    </span>
                    <span className="block text-sm break-all text-zinc-600">{moderator.email}</span>
                  </span>
                  <RemoveButton
                    intent="remove-moderator"
                    name="roleId"
                    value={moderator.roleId}
                    label={`Remove ${moderator.firstName} ${moderator.lastName} as a moderator`}
                  />
                </li>
              ))}
            </ul>
          )}
          <div className="mt-3">
            <OneFieldForm
              intent="appoint-moderator"
              name="email"
              type="email"
              label="Appoint by e-mail"
              submitLabel="Appoint"
              maxLength={254}
            />
          </div>
        </Panel>
        <Panel title="Report threshold" id="threshold-title">
          <p className="text-sm text-zinc-600">
            The weight of reports (from 2 students or more) that hides a post before moderators review it.
          </p>
          <div className="mt-3">
            <OneFieldForm
              intent="set-threshold"
              name="threshold"
              type="number"
              label="Weight (1 to 50)"
              submitLabel="Save"
              defaultValue={String(campus.reportHideThreshold)}
              maxLength={5}
            />
          </div>
        </Panel>
      </div>
      <MeetupSpotsSection campusId={campus.id} {...loaderData.meetupSpots} />
      <Panel title="Changes" id="changes-title">
        {changes.length === 0 ? (
          <p className="text-sm text-zinc-600">No changes logged.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm">
            {changes.map((change) => (
              <li key={change.id} className="py-2">
                {logActionWords(change.action, null)} · {change.source} · {utc(change.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </article>
  );
}
