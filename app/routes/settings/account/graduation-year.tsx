import { Form, redirect } from "react-router";
import { z } from "zod";
import { GradYearSelect } from "~/app/components/settings/grad-year-select";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm, readIntent, readReturnTo } from "~/app/lib/form.server";
import { dismissGradYearBanner } from "~/app/lib/grad-year-banner.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { setMissingGradYear } from "~/server/accounts/badge";
import { BADGE_MESSAGES, BADGE_RENEWAL_PATH, gradYearChoices } from "~/server/accounts/badge.shared";
import { gradYearFormSchema } from "~/server/accounts/grad-year.shared";
import type { Route } from "./+types/graduation-year";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Graduation year", matches[0]?.loaderData?.campus) }];
}

/** The year banner's two forms: save the year (no intent field) and 'Not now'. */
const INTENTS = z.enum(["save", "dismiss"]).default("save");

/**
 * Decision 0682: the page the year banner posts to, and the same form alone (it works without
 * JavaScript). Only a school-verified student has a badge to give a year to.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  if (!viewer.schoolVerified) throw redirect(BADGE_RENEWAL_PATH);
  return {
    years: gradYearChoices(args.context.app.clock.now()),
    gradYear: viewer.gradYear,
  };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const { context, request } = args;
  const form = await readForm(request);
  const returnTo = readReturnTo(form);
  if (readIntent(form, INTENTS) === "dismiss") {
    throw redirect(returnTo ?? "/home", { headers: { "Set-Cookie": await dismissGradYearBanner(viewer) } });
  }
  return submitForm(
    context.app,
    form,
    gradYearFormSchema(context.app.clock.now()),
    async (value) => {
      await setMissingGradYear(context.app, viewer, value);
      return redirectWithToast(returnTo ?? "/settings/account", {
        message: BADGE_MESSAGES.gradYearSaved,
        type: "success",
      });
    },
    { failures: AREA_FAILURES.accountSettings, inlineFields: ["gradYear"] },
  );
}

type Answer = { result?: { error?: Record<string, string[] | null> | null } } | undefined;

/** /settings/account/graduation_year: 'Graduation year', once, for a verified student without one. */
export default function GraduationYear({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmitting();
  const toast = actionData && "toast" in actionData ? actionData.toast : undefined;
  useActionToast(toast);
  const error = (actionData as Answer)?.result?.error?.gradYear?.[0] ?? null;
  return (
    <SettingsPage title="Graduation year" backTo="/settings/account">
      {loaderData.gradYear === null ? (
        <>
          <p className="mb-5 text-[15px] text-zinc-600">
            Your verified student badge shows your class year. When do you expect to graduate?
          </p>
          <NoScriptMessage toast={toast} />
          <Form method="post" className="flex flex-col gap-4">
            <GradYearSelect id="grad-year" years={loaderData.years} error={error} />
            <Button type="submit" className="self-start" processing={submitting}>
              Save
            </Button>
          </Form>
        </>
      ) : (
        <p className="text-[15px] text-zinc-600">
          Your class year is <strong className="font-semibold text-zinc-900">{loaderData.gradYear}</strong>.
          It changes only when you renew your badge with a new PIN to your school email.
        </p>
      )}
    </SettingsPage>
  );
}
