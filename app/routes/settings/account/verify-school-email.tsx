import { redirect } from "react-router";
import { AccountFormNote, AccountTextLink } from "~/app/components/settings/account-form";
import { AccountPinForm, PIN_INTENTS } from "~/app/components/settings/account-pin-form";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { AREA_FAILURES } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { answerCodeForm } from "~/app/routes/auth/action.server";
import { sendBadgeRenewalCode } from "~/server/accounts/badge";
import { resolveSchoolCampus, sendSchoolEmailCode, verifySchoolEmailCode } from "~/server/accounts/school";
import type { Route } from "./+types/verify-school-email";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Enter PIN", matches[0]?.loaderData?.campus) }];
}

async function requireEmailVerifiedUser(args: Route.LoaderArgs | Route.ActionArgs) {
  const viewer = await requireUser(args);
  if (!viewer.verified) throw redirect("/verify");
  return viewer;
}

/**
 * spec 1 §2: reads the email and campus query parameters; without an email it goes back a step.
 * Decisions 0680 and 0682: also the class year chosen with the address (the domain checks it again
 * with the code) and whether this PIN renews the badge (a new PIN then goes to the same address).
 */
function pinQuery({ request }: Route.LoaderArgs | Route.ActionArgs) {
  const params = new URL(request.url).searchParams;
  const email = params.get("email")?.trim();
  const campus = params.get("campus");
  const gradYear = params.get("gradYear") ?? undefined;
  const renew = params.get("renew") === "1";
  const back = `/settings/account/school_email${campus ? `?${new URLSearchParams({ campus })}` : ""}`;
  if (!email) throw redirect(back);
  return { email, campus, gradYear, renew, back };
}

export async function loader(args: Route.LoaderArgs) {
  await requireEmailVerifiedUser(args);
  const { email, back, renew } = pinQuery(args);
  return { email, back, renew };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireEmailVerifiedUser(args);
  const { request, context } = args;
  const query = pinQuery(args);
  return answerCodeForm(context.app, await readForm(request), {
    intents: PIN_INTENTS,
    failures: AREA_FAILURES.accountSettings,
    resend: () => {
      if (query.renew) return sendBadgeRenewalCode(context.app, viewer, { gradYear: query.gradYear });
      const campus = resolveSchoolCampus(context.campus, query.campus, (id) => context.campuses.get(id));
      return sendSchoolEmailCode(
        context.app,
        viewer,
        { email: query.email, gradYear: query.gradYear },
        campus,
      );
    },
    verify: async (value) => {
      const verified = await verifySchoolEmailCode(
        context.app,
        viewer,
        { ...value, gradYear: query.gradYear },
        { genericInstance: context.campus.generic },
      );
      // Decision 0682: a renewal starts the badge's 12 months again on the same campus.
      if (query.renew && !verified.joined) {
        return redirectWithToast(verified.next, { message: BADGE_RENEWED, type: "success" });
      }
      // spec 1 §4: the generic instance goes on to /search_schools, a campus to /home (ours: a welcome toast).
      return redirectWithToast(verified.next, {
        message: `Welcome to ${campusBrand({ name: verified.campus.name, generic: false })}!`,
        type: "success",
      });
    },
  });
}

/** Decision 0682: the toast after a renewal's PIN (a renewal joins no campus, so no 'Welcome'). */
const BADGE_RENEWED = "Your verified student badge is renewed";

/** spec 1 §2 /settings/account/verify_school_email ('Enter PIN'). */
export default function VerifySchoolEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountPinForm sentTo={loaderData.email} actionData={actionData}>
      {loaderData.renew ? (
        <p className="mt-5 text-[15px] text-zinc-600">
          Entering it renews your verified student badge for 12 months.
        </p>
      ) : null}
      <div className="mt-5">
        <AccountFormNote>
          Wrong address? <AccountTextLink to={loaderData.back}>Change it</AccountTextLink>
        </AccountFormNote>
      </div>
    </AccountPinForm>
  );
}
