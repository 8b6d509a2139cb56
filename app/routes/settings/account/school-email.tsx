import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { data, Form, redirect } from "react-router";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/auth/action-feedback";
import { AccountFormNote, AccountTextLink, useSaveEnabled } from "~/app/components/settings/account-form";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { Button } from "~/app/components/ui/button";
import { Field } from "~/app/components/ui/field";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { type AccountActionData, EMAIL_SENT } from "~/app/routes/settings/account/account-action.server";
import { SETTINGS_ERRORS } from "~/server/accounts/errors";
import { MAX_EMAIL_LENGTH, schoolEmailSchema } from "~/server/accounts/schemas";
import { resolveSchoolCampus, sendSchoolEmailCode } from "~/server/accounts/school";
import { isSchoolEmailDomain } from "~/server/campuses/names";
import { SOMETHING_WENT_WRONG } from "~/server/errors";
import type { Route } from "./+types/school-email";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
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
  const formData = await readForm(request);
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
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    const sent = await sendSchoolEmailCode(context.app, viewer, submission.value, campus);
    const query = new URLSearchParams({ email: sent.email, campus: sent.campusId });
    return redirectWithToast(`/settings/account/verify_school_email?${query}`, EMAIL_SENT);
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
      inlineFields: ["email"],
    });
  }
}

/** spec 1 §2 /settings/account/school_email: 'Send PIN' to a school address of the campus. */
export default function SchoolEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { campus, heading, schoolEmail } = loaderData;
  const submitting = useSubmitting();
  const save = useSaveEnabled({ email: schoolEmail ?? "" });
  const domains = campus?.domains;
  const schema = useMemo(
    () =>
      schoolEmailSchema({
        currentSchoolEmail: schoolEmail,
        isCampusDomain: (email) => isSchoolEmailDomain(email, domains ?? []),
      }),
    [schoolEmail, domains],
  );
  useActionToast(actionData?.toast);
  const [form, fields] = useForm({
    id: `school-email-${schoolEmail ?? ""}`,
    lastResult: actionData?.result,
    defaultValue: { email: schoolEmail ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

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
    <SettingsPage title={heading} backTo="/settings/account">
      <p className="mb-5 text-[15px] text-zinc-600">
        {campus.school ? (
          <>
            Verify that you study at <strong className="font-semibold text-zinc-900">{campus.school}</strong>
          </>
        ) : (
          "Verify your school"
        )}{" "}
        to post, comment and message on {campusBrand(campus)}. We send a 4-digit PIN to your school email.
      </p>
      <NoScriptMessage toast={actionData?.toast} />
      <Form
        method="post"
        {...getFormProps(form)}
        ref={save.formRef}
        onChange={save.onChange}
        className="flex flex-col gap-4"
      >
        <Field
          label="School email"
          type="email"
          key={fields.email.key}
          id={fields.email.id}
          name={fields.email.name}
          defaultValue={fields.email.initialValue}
          error={fields.email.errors?.[0]}
          placeholder={example}
          autoComplete="email"
          inputMode="email"
          maxLength={MAX_EMAIL_LENGTH}
          hint={`Addresses ending in ${campus.domains.map((domain) => `@${domain}`).join(", ")} (or a subdomain).`}
        />
        <AccountFormNote>Your school email is never shown publicly.</AccountFormNote>
        <Button type="submit" className="self-start" processing={submitting} disabled={save.disabled}>
          Send PIN
        </Button>
      </Form>
    </SettingsPage>
  );
}
