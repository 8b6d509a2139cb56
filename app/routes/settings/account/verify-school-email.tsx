import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { AccountFormNote, AccountTextLink } from "~/app/components/settings/account-form";
import { AccountPinForm } from "~/app/components/settings/account-pin-form";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import {
  type AccountActionData,
  EMAIL_SENT,
  PinIntent,
} from "~/app/routes/settings/account/account-action.server";
import { pinSchema } from "~/server/accounts/schemas";
import { resolveSchoolCampus, sendSchoolEmailCode, verifySchoolEmailCode } from "~/server/accounts/school";
import type { Route } from "./+types/verify-school-email";

// Issue 10 §1, decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Enter PIN", matches[0]?.loaderData?.campus) }];
}

async function requireEmailVerifiedUser(args: Route.LoaderArgs | Route.ActionArgs) {
  const viewer = await requireUser(args);
  if (!viewer.verified) throw redirect("/verify");
  return viewer;
}

/** spec 1 §2: reads the email and campus query parameters; without an email it goes back a step. */
function pinQuery({ request }: Route.LoaderArgs | Route.ActionArgs) {
  const params = new URL(request.url).searchParams;
  const email = params.get("email")?.trim();
  const campus = params.get("campus");
  const back = `/settings/account/school_email${campus ? `?${new URLSearchParams({ campus })}` : ""}`;
  if (!email) throw redirect(back);
  return { email, campus, back };
}

export async function loader(args: Route.LoaderArgs) {
  await requireEmailVerifiedUser(args);
  const { email, back } = pinQuery(args);
  return { email, back };
}

export async function action(args: Route.ActionArgs) {
  const viewer = await requireEmailVerifiedUser(args);
  const { request, context } = args;
  const query = pinQuery(args);
  const formData = await readForm(request);

  if (readIntent(formData, PinIntent) === "resend-pin") {
    const campus = resolveSchoolCampus(context.campus, query.campus, (id) => context.campuses.get(id));
    try {
      await sendSchoolEmailCode(context.app, viewer, { email: query.email }, campus);
      return data<AccountActionData>({ toast: EMAIL_SENT });
    } catch (error) {
      return failureReply(context.app, error, { ...AREA_FAILURES.accountSettings });
    }
  }

  const submission = parseWithZod(formData, { schema: pinSchema });
  if (submission.status !== "success") {
    return data<AccountActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    const verified = await verifySchoolEmailCode(context.app, viewer, submission.value, {
      genericInstance: context.campus.generic,
    });
    // spec 1 §4: the generic instance goes on to /search_schools, a campus to /home (ours: a welcome toast).
    return redirectWithToast(verified.next, {
      message: `Welcome to ${campusBrand({ name: verified.campus.name, generic: false })}!`,
      type: "success",
    });
  } catch (error) {
    return failureReply(context.app, error, {
      ...AREA_FAILURES.accountSettings,
      reply: (options) => submission.reply(options),
      inlineFields: ["code"],
    });
  }
}

/** spec 1 §2 /settings/account/verify_school_email ('Enter PIN'). */
export default function VerifySchoolEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountPinForm sentTo={loaderData.email} actionData={actionData}>
      <div className="mt-5">
        <AccountFormNote>
          Wrong address? <AccountTextLink to={loaderData.back}>Change it</AccountTextLink>
        </AccountFormNote>
      </div>
    </AccountPinForm>
  );
}
