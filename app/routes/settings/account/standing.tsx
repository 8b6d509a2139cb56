import { data } from "react-router";
import { StandingView } from "~/app/components/moderation/standing-view";
import { formatCalendarDate } from "~/app/components/settings/account-rows";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast } from "~/app/components/ui/action-feedback";
import { submitForm } from "~/app/lib/errors.server";
import { readForm } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireUser } from "~/app/lib/viewer.server";
import { fileAppeal } from "~/server/moderation/appeals";
import { appealSchema } from "~/server/moderation/appeals.shared";
import { APPEAL_MESSAGES, STRIKE_ACTION_LABELS } from "~/server/moderation/rules.shared";
import { getStanding } from "~/server/moderation/standing";
import type { Route } from "./+types/standing";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Account standing", matches[0]?.loaderData?.campus) }];
}

/** Decision 0548: the student's own standing; signed-out visitors go to / as on every account page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const standing = await getStanding(args.context.app, viewer);
  // Dates as the account pages write them (UTC, so the server and the browser agree).
  return data({
    restriction: standing.restriction && {
      until: standing.restriction.indefinite ? null : formatCalendarDate(standing.restriction.until),
      reasonLabel: standing.restriction.reasonLabel,
      publicReason: standing.restriction.publicReason,
    },
    strikes: standing.strikes.map((strike) => ({
      id: strike.id,
      action: STRIKE_ACTION_LABELS[strike.action],
      date: formatCalendarDate(strike.createdAt),
      reasonLabel: strike.reasonLabel,
      publicReason: strike.publicReason,
      target: strike.target,
      overruledOn: strike.overruledAt ? formatCalendarDate(strike.overruledAt) : null,
      appeal: strike.appeal && {
        status: strike.appeal.status,
        decisionReason: strike.appeal.decisionReason,
        date: formatCalendarDate(strike.appeal.createdAt),
      },
      appealUntil: strike.appealUntil ? formatCalendarDate(strike.appealUntil) : null,
    })),
    removed: standing.removed.map((item) => ({ ...item, date: formatCalendarDate(item.createdAt) })),
  });
}

/** Decision 0545: the Appeal form of one strike (its id in the form); the rules are fileAppeal's. */
export async function action(args: Route.ActionArgs) {
  const viewer = await requireUser(args);
  const app = args.context.app;
  return submitForm(
    app,
    await readForm(args.request),
    appealSchema,
    async (value) => {
      await fileAppeal(app, viewer, value.strikeId, value.text);
      return redirectWithToast("/settings/account/standing", {
        message: APPEAL_MESSAGES.filed,
        type: "okay",
      });
    },
    {
      failures: { fallback: APPEAL_MESSAGES.somethingWentWrong, logMessage: "appeal failed" },
      inlineFields: ["text"],
    },
  );
}

/** /settings/account/standing (decision 0548): strikes, any suspension, removed items, appeals. */
export default function AccountStanding({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.toast);
  return (
    <SettingsPage title="Account standing" backTo="/settings/account">
      <NoScriptMessage toast={actionData?.toast} />
      <StandingView standing={loaderData} lastResult={actionData?.result} />
    </SettingsPage>
  );
}
