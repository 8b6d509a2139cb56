import { getFormProps, getSelectProps } from "@conform-to/react";
import { data, Form, useFetcher } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Avatar } from "~/app/components/ui/avatar";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import { failureReply, orNotFound, submitForm } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import { MAX_EMAIL_LENGTH } from "~/server/accounts/schemas.shared";
import { STAFF_MESSAGES } from "~/server/staff/errors.shared";
import {
  appointModerator,
  getModeratorsPage,
  removeModerator,
  type StaffListing,
} from "~/server/staff/moderators";
import { requireSiteAdmin } from "~/server/staff/roles";
import { appointModeratorSchema } from "~/server/staff/schemas.shared";
import type { Route } from "./+types/moderators";

/** Decision 0140: an error here answers in this page's panel, inside the shell (the 404 panel for anyone but a site admin, decision 0520). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [
    { title: pageTitle("Campus moderators", matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0520: site admins only; anyone else, signed out included, gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  return data(await orNotFound(getModeratorsPage(args.context.app, viewer)));
}

const MODERATOR_INTENTS = z.enum(["appoint-moderator", "remove-moderator"]).default("appoint-moderator");
const STAFF_FAILURES = { fallback: STAFF_MESSAGES.somethingWentWrong, logMessage: "staff action failed" };

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, MODERATOR_INTENTS);
  if (intent === "remove-moderator") {
    const { roleId } = formFields(form);
    try {
      await orNotFound(removeModerator(app, viewer, { roleId: typeof roleId === "string" ? roleId : "" }));
      const toast: ToastInput = { message: STAFF_MESSAGES.moderatorRemoved, type: "okay" };
      return data({ ok: true as const, intent, toast });
    } catch (error) {
      return failureReply(app, error, { intent, ...STAFF_FAILURES });
    }
  }
  return submitForm(
    app,
    form,
    appointModeratorSchema,
    async (value, reply) => {
      const appointed = await orNotFound(appointModerator(app, viewer, value));
      const toast: ToastInput = {
        message: `${appointed.name} now moderates ${appointed.campusName}.`,
        type: "okay",
      };
      return data({ ok: true as const, intent, toast, result: reply({ resetForm: true }) });
    },
    { failures: STAFF_FAILURES, inlineFields: ["email", "campusId"] },
  );
}

/**
 * /admin/moderators (decision 0520): a site admin appoints a campus's moderator by e-mail and
 * removes one; the current moderators are listed by campus, and the site admins below them.
 */
export default function Moderators({ loaderData, actionData }: Route.ComponentProps) {
  const { campuses, moderated, siteAdmins } = loaderData;
  // A removal answers its row's fetcher; without JavaScript, the page (its message below).
  const removal = actionData && "intent" in actionData && actionData.intent === "remove-moderator";
  const appointData = removal ? undefined : actionData;
  const [form, fields] = useSchemaForm(appointModeratorSchema, {
    lastResult: appointData && "result" in appointData ? appointData.result : undefined,
    validate: "onSubmit",
  });
  const submitting = useSubmitting("appoint-moderator");
  useActionToast(appointData?.toast);
  const campusError = fields.campusId.errors?.[0];
  return (
    <article aria-labelledby="moderators-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <header>
        <h1 id="moderators-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Campus moderators
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          Moderators review reports on their campus. Site admins see every campus.
        </p>
      </header>

      <section
        aria-labelledby="appoint-title"
        className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-7"
      >
        <h2 id="appoint-title" className="text-lg font-bold text-zinc-900">
          Appoint a moderator
        </h2>
        <NoScriptMessage toast={actionData?.toast} />
        <Form
          method="post"
          {...getFormProps(form)}
          className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] md:items-start"
        >
          <input type="hidden" name="intent" value="appoint-moderator" />
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.campusId.id} className="text-sm font-medium text-zinc-800">
              Campus
            </label>
            <select
              {...getSelectProps(fields.campusId)}
              aria-describedby={campusError ? `${fields.campusId.id}-error` : undefined}
              className={`rounded-lg border bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 ${campusError ? "border-red-500" : "border-zinc-300"}`}
            >
              <option value="">Choose a campus</option>
              {campuses.map((campus) => (
                <option key={campus.id} value={campus.id}>
                  {campus.school ? `${campus.name} (${campus.school})` : campus.name}
                </option>
              ))}
            </select>
            {campusError ? (
              <p id={`${fields.campusId.id}-error`} className="text-sm text-red-600">
                {campusError}
              </p>
            ) : null}
          </div>
          <ConformField
            meta={fields.email}
            label="Student's e-mail"
            type="email"
            autoComplete="off"
            inputMode="email"
            maxLength={MAX_EMAIL_LENGTH}
            hint="The address they sign in with."
          />
          <Button type="submit" processing={submitting} className="md:mt-6">
            Appoint
          </Button>
        </Form>
      </section>

      <section
        aria-labelledby="current-title"
        className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-7"
      >
        <h2 id="current-title" className="text-lg font-bold text-zinc-900">
          Current moderators
        </h2>
        {moderated.length === 0 ? (
          <p className="mt-3 text-[15px] text-zinc-600">
            No campus has a moderator yet. Appoint one above: reports then reach a person on that campus.
          </p>
        ) : (
          moderated.map((campus) => (
            <section key={campus.campusId} aria-labelledby={`campus-${campus.campusId}`} className="mt-4">
              <h3
                id={`campus-${campus.campusId}`}
                className="text-sm font-semibold tracking-wide text-zinc-500 uppercase"
              >
                {campus.campusName}
              </h3>
              <ul className="-mx-5 mt-1 divide-y divide-zinc-100 md:-mx-7">
                {campus.moderators.map((moderator) => (
                  <ModeratorRow key={moderator.roleId} moderator={moderator} campusName={campus.campusName} />
                ))}
              </ul>
            </section>
          ))
        )}
      </section>

      <section
        aria-labelledby="admins-title"
        className="rounded-2xl border border-zinc-200 bg-white p-5 md:p-7"
      >
        <h2 id="admins-title" className="text-lg font-bold text-zinc-900">
          Site admins
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Set by the operator: ADMIN_EMAILS, or <code className="text-[13px]">npm run staff</code>.
        </p>
        <ul className="-mx-5 mt-2 divide-y divide-zinc-100 md:-mx-7">
          {siteAdmins.map((admin) => (
            <li key={admin.roleId} className="flex items-center gap-3 px-5 py-3 md:px-7">
              <PersonCell person={admin} />
              <span className="shrink-0 text-xs text-zinc-500">{SOURCE_LABELS[admin.source]}</span>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

const SOURCE_LABELS: Record<StaffListing["source"], string> = {
  config: "ADMIN_EMAILS",
  command: "npm run staff",
  staff: "Appointed here",
  seed: "Demo",
  system: "Automatic",
};

function PersonCell({
  person,
}: {
  person: Pick<StaffListing, "firstName" | "lastName" | "username" | "img" | "email">;
}) {
  return (
    <>
      <Avatar person={person} />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-semibold">
          {person.firstName} {person.lastName}
        </span>
        <span className="block truncate text-sm text-zinc-500">{person.email}</span>
      </span>
    </>
  );
}

function ModeratorRow({ moderator, campusName }: { moderator: StaffListing; campusName: string }) {
  const remove = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(remove.data?.toast);
  return (
    <li className="flex items-center gap-3 px-5 py-3 md:px-7">
      <PersonCell person={moderator} />
      <remove.Form method="post">
        <input type="hidden" name="intent" value="remove-moderator" />
        <input type="hidden" name="roleId" value={moderator.roleId} />
        <button
          type="submit"
          disabled={remove.state !== "idle"}
          aria-label={`Remove ${moderator.firstName} ${moderator.lastName} as a moderator of ${campusName}`}
          className="rounded-full border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:text-zinc-400"
        >
          Remove
        </button>
      </remove.Form>
    </li>
  );
}
