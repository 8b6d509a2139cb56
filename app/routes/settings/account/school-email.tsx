import { useMemo } from "react";
import { data, Form, redirect } from "react-router";
import { z } from "zod";
import {
  AccountFormNote,
  AccountTextLink,
  SettingsForm,
  useAccountForm,
} from "~/app/components/settings/account-form";
import { GradYearSelect } from "~/app/components/settings/grad-year-select";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { ConformField } from "~/app/components/ui/field";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { type AccountActionData, EMAIL_SENT } from "~/app/routes/settings/account/account-action.server";
import { getBadgeState, sendBadgeRenewalCode } from "~/server/accounts/badge";
import { BADGE_MESSAGES, gradYearChoices } from "~/server/accounts/badge.shared";
import { SETTINGS_ERRORS } from "~/server/accounts/errors.shared";
import { gradYearFormSchema, gradYearSchema } from "~/server/accounts/grad-year.shared";
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

/** The Send PIN form: the school address and the class year (decision 0680), both required. */
function schoolStepSchema(options: {
  currentSchoolEmail: string | null;
  domains: readonly string[];
  now: Date;
}) {
  return schoolEmailSchema({
    currentSchoolEmail: options.currentSchoolEmail,
    isCampusDomain: (email) => isSchoolEmailDomain(email, [...options.domains]),
  }).extend({
    // A form sends text; the year's own rule (this year to this year + 7) reads it.
    gradYear: z
      .string({ error: BADGE_MESSAGES.gradYearInvalid })
      .pipe(gradYearSchema(options.now) as z.ZodType<number, string>),
  });
}

/** The two forms of the page: Send PIN (no intent field) and the badge's renewal (decision 0682). */
const INTENTS = z.enum(["school-email", "renew"]).default("school-email");

/** 'December 1, 2027' (UTC), as the reminder e-mail writes the day the badge lapses. */
function dayOf(at: Date): string {
  return at.toLocaleDateString("en-US", { timeZone: "UTC", month: "long", day: "numeric", year: "numeric" });
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireEmailVerifiedUser(args);
  const campus = schoolCampus(args);
  const now = args.context.app.clock.now();
  const badge = await getBadgeState(args.context.app, viewer);
  return {
    // Decision 0680: the years by the app's clock; the client's schema reads the same instant.
    now: now.toISOString(),
    years: gradYearChoices(now),
    gradYear: badge.gradYear === null ? "" : String(badge.gradYear),
    // Decision 0682: a verified student renews with a code to the same address, on their own campus.
    renewal:
      badge.renewable && badge.schoolEmail && campus?.id === viewer.campusId
        ? {
            schoolEmail: badge.schoolEmail,
            label: badge.badge?.label ?? null,
            lapsesOn: badge.lapsesAt ? dayOf(badge.lapsesAt) : null,
            lapsed: badge.badge === null,
          }
        : null,
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
  const form = await readForm(request);
  const now = context.app.clock.now();
  if (readIntent(form, INTENTS) === "renew") {
    return submitForm(
      context.app,
      form,
      gradYearFormSchema(now),
      async (value) => {
        const sent = await sendBadgeRenewalCode(context.app, viewer, value);
        const query = new URLSearchParams({
          email: sent.email,
          campus: sent.campusId,
          gradYear: String(sent.gradYear),
          renew: "1",
        });
        return redirectWithToast(`/settings/account/verify_school_email?${query}`, EMAIL_SENT);
      },
      { failures: AREA_FAILURES.accountSettings, inlineFields: ["gradYear"], intent: "renew" },
    );
  }
  const schema = schoolStepSchema({ currentSchoolEmail: viewer.schoolEmail, domains: campus.domains, now });
  return submitForm(
    context.app,
    form,
    schema,
    async (value) => {
      const sent = await sendSchoolEmailCode(context.app, viewer, value, campus);
      const query = new URLSearchParams({ email: sent.email, campus: sent.campusId });
      if (sent.gradYear !== undefined) query.set("gradYear", String(sent.gradYear));
      return redirectWithToast(`/settings/account/verify_school_email?${query}`, EMAIL_SENT);
    },
    { failures: AREA_FAILURES.accountSettings, inlineFields: ["email", "gradYear"] },
  );
}

/** spec 1 §2 /settings/account/school_email: 'Send PIN' to a school address of the campus. */
export default function SchoolEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { campus, heading, schoolEmail, now, years, gradYear, renewal } = loaderData;
  const domains = campus?.domains;
  const schema = useMemo(
    () => schoolStepSchema({ currentSchoolEmail: schoolEmail, domains: domains ?? [], now: new Date(now) }),
    [schoolEmail, domains, now],
  );
  // The renewal's answer belongs to its own form, not to Send PIN's fields.
  const renewAnswer =
    actionData && "intent" in actionData && actionData.intent === "renew" ? actionData : undefined;
  const account = useAccountForm(schema, {
    id: `school-email-${schoolEmail ?? ""}`,
    saved: { email: schoolEmail ?? "", gradYear },
    actionData: renewAnswer ? undefined : actionData,
  });
  // Without a campus there is no form (SettingsForm says a refusal otherwise).
  useActionToast(campus && !renewAnswer ? undefined : actionData?.toast);

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
        <>
          {renewal ? (
            <BadgeRenewal
              renewal={renewal}
              years={years}
              gradYear={gradYear}
              error={renewError(renewAnswer)}
            />
          ) : null}
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
        </>
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
      <GradYearSelect
        key={account.fields.gradYear.key}
        id={account.fields.gradYear.id}
        name={account.fields.gradYear.name}
        years={years}
        defaultValue={gradYear}
        error={account.fields.gradYear.errors?.[0]}
      />
      <AccountFormNote>Your school email is never shown publicly.</AccountFormNote>
    </SettingsForm>
  );
}

function renewError(answer: { result?: { error?: Record<string, string[] | null> | null } } | undefined) {
  return answer?.result?.error?.gradYear?.[0] ?? null;
}

/**
 * Decision 0682: the badge's renewal, for a verified student whose badge lapses: when it does, and
 * a new PIN to the same school address with the year chosen again. A plain form (no client code).
 */
function BadgeRenewal({
  renewal,
  years,
  gradYear,
  error,
}: {
  renewal: { schoolEmail: string; label: string | null; lapsesOn: string | null; lapsed: boolean };
  years: readonly number[];
  gradYear: string;
  error: string | null;
}) {
  return (
    <section
      aria-labelledby="badge-renewal"
      className="mb-6 rounded-2xl border border-zinc-200 bg-zinc-50 p-4"
    >
      <h2 id="badge-renewal" className="font-semibold text-zinc-900">
        Verified student badge
      </h2>
      <p className="mt-1 text-[15px] text-zinc-600">
        {renewal.lapsed ? (
          "Your badge has lapsed."
        ) : (
          <>
            {renewal.label ? <strong className="font-semibold text-zinc-900">{renewal.label}</strong> : null}
            {renewal.lapsesOn ? ` until ${renewal.lapsesOn}.` : "."}
          </>
        )}{" "}
        Renew it with a new PIN to{" "}
        <strong className="font-semibold break-all text-zinc-900">{renewal.schoolEmail}</strong>.
      </p>
      <Form method="post" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="renew" />
        <div className="sm:w-56">
          <GradYearSelect id="renew-grad-year" years={years} defaultValue={gradYear} error={error} />
        </div>
        <Button type="submit" variant="secondary" className="self-start sm:self-auto">
          Renew badge
        </Button>
      </Form>
    </section>
  );
}
