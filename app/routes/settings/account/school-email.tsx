import { useMemo } from "react";
import { data, redirect } from "react-router";
import {
  AccountFormNote,
  AccountTextLink,
  SettingsForm,
  useAccountForm,
} from "~/app/components/settings/account-form";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { ConformField } from "~/app/components/ui/field";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import {
  type AccountActionData,
  EMAIL_SENT,
  submitAccountForm,
} from "~/app/routes/settings/account/account-action.server";
import { SETTINGS_ERRORS } from "~/server/accounts/errors.shared";
import { MAX_EMAIL_LENGTH, schoolEmailSchema } from "~/server/accounts/schemas.shared";
import { resolveSchoolCampus, sendSchoolEmailCode } from "~/server/accounts/school";
import { isSchoolEmailDomain } from "~/server/campuses/names.shared";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import type { Route } from "./+types/school-email";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData?.heading ?? "School email", matches[0]?.loaderData?.campus) }];
}

/** spec 1 §4: the school comes after the e-mail; an unverified e-mail goes to /verify first. */
async function requireEmailVerifiedUser(args: Route.LoaderArgs | Route.ActionArgs) {
  const viewer = await requireUser(args);
  if (!viewer.verified) throw redirect("/verify");
  return viewer;
}

/** spec 1 §5: the host's campus, or on the generic instance the campus of the `campus` query. */
function schoolCampus({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const query = new URL(request.url).searchParams.get("campus");
  return resolveSchoolCampus(context.campus, query, (id) => context.campuses.get(id));
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireEmailVerifiedUser(args);
  const campus = schoolCampus(args);
  return {
    // spec 1 §2: 'Join your campus' without a school e-mail, 'Change school email' with one.
    heading: viewer.schoolEmail ? "Change school email" : "Join your campus",
    schoolEmail: viewer.schoolEmail,
    campus: campus
      ? { id: campus.id, name: campus.name, school: campus.school, generic: false, domains: campus.domains }
      : null,
    genericInstance: args.context.campus.generic,
  };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireEmailVerifiedUser(args);
  const { context, request } = args;
  const campus = schoolCampus(args);
  if (!campus) {
    // spec 1 §5: no campus with a domain list.
    return data<AccountActionData>(
      { toast: { message: SETTINGS_ERRORS.somethingWentWrong, type: "danger" } },
      { status: 400 },
    );
  }
  const schema = schoolEmailSchema({
    currentSchoolEmail: viewer.schoolEmail,
    isCampusDomain: (email) => isSchoolEmailDomain(email, campus.domains),
  });
  return submitAccountForm(
    request,
    context.app,
    schema,
    async (value) => {
      const sent = await sendSchoolEmailCode(context.app, viewer, value, campus);
      const query = new URLSearchParams({ email: sent.email, campus: sent.campusId });
      return redirectWithToast(`/settings/account/verify_school_email?${query}`, EMAIL_SENT);
    },
    { inlineFields: ["email"] },
  );
}

/** spec 1 §2 /settings/account/school_email: 'Send PIN' to a school address of the campus. */
export default function SchoolEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { campus, heading, schoolEmail } = loaderData;
  const domains = campus?.domains;
  const schema = useMemo(
    () =>
      schoolEmailSchema({
        currentSchoolEmail: schoolEmail,
        isCampusDomain: (email) => isSchoolEmailDomain(email, domains ?? []),
      }),
    [schoolEmail, domains],
  );
  const account = useAccountForm(schema, {
    id: `school-email-${schoolEmail ?? ""}`,
    saved: { email: schoolEmail ?? "" },
    actionData,
  });
  // Without a campus there is no form (SettingsForm says a refusal otherwise).
  useActionToast(campus ? undefined : actionData?.toast);

  if (!campus) {
    // spec 1 §5: no campus, or one without a domain list.
    return (
      <SettingsPage title={heading} backTo="/settings/account">
        <p role="alert" className="font-semibold text-zinc-900">
          {SOMETHING_WENT_WRONG}
        </p>
        <p className="mt-2 text-[15px] text-zinc-600">
          We could not tell which school to verify.{" "}
          <AccountTextLink to="/search_schools">Find your school</AccountTextLink> and choose Join Campus.
        </p>
      </SettingsPage>
    );
  }

  const example = `you@${campus.domains[0] ?? "school.edu"}`;
  return (
    <SettingsForm
      title={heading}
      account={account}
      submitLabel="Send PIN"
      intro={
        <p className="mb-5 text-[15px] text-zinc-600">
          {campus.school ? (
            <>
              Verify that you study at{" "}
              <strong className="font-semibold text-zinc-900">{campus.school}</strong>
            </>
          ) : (
            "Verify your school"
          )}{" "}
          to post, comment and message on {campusBrand(campus)}. We send a 4-digit PIN to your school email.
        </p>
      }
    >
      <ConformField
        meta={account.fields.email}
        label="School email"
        type="email"
        placeholder={example}
        autoComplete="email"
        inputMode="email"
        maxLength={MAX_EMAIL_LENGTH}
        hint={`Addresses ending in ${campus.domains.map((domain) => `@${domain}`).join(", ")} (or a subdomain).`}
      />
      <AccountFormNote>Your school email is never shown publicly.</AccountFormNote>
    </SettingsForm>
  );
}
