import { data, Link } from "react-router";
import { z } from "zod";
import { DecisionForms } from "~/app/components/mod/decision-forms";
import { AuthorRecordPanel, ItemContentPanel, ReportsPanel } from "~/app/components/mod/item-panels";
import { Badge } from "~/app/components/mod/queue-row";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast } from "~/app/components/ui/action-feedback";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import { decideAppeal } from "~/server/moderation/appeal-decisions";
import type {
  DecideAppealInput,
  DecideItemInput,
  ItemActionInput,
  ReporterMuteInput,
  SendNoteInput,
} from "~/server/moderation/decision-schemas.shared";
import { decideItem } from "~/server/moderation/decisions";
import { getModerationItem } from "~/server/moderation/item-view";
import { setReporterMuted } from "~/server/moderation/reporters";
import { STAFF_DECISION_MESSAGES } from "~/server/moderation/rules.shared";
import { liftItemSuspension, restoreItemContent, sendNoteToStudent } from "~/server/moderation/staff-actions";
import { requireStaff } from "~/server/staff/roles";
import type { Route } from "./+types/item";

/** Decision 0140: an error answers in this page's panel (the 404 panel out of scope, decision 0541). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches, data: loaded }: Route.MetaArgs) {
  return [
    {
      title: pageTitle(
        loaded ? `${loaded.item.kindLabel} · Moderation` : "Moderation",
        matches[0]?.loaderData?.campus,
      ),
    },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0541: the item in the staff member's scope; anyone else gets the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await getViewer(args);
  return data(await orNotFound(getModerationItem(args.context.app, viewer, args.params.id)));
}

const ITEM_INTENTS = z.enum([
  "decide-item",
  "restore-content",
  "lift-suspension",
  "send-note",
  "decide-appeal",
  "mute-reporter",
  "unmute-reporter",
]);
const FAILURES = {
  fallback: STAFF_DECISION_MESSAGES.somethingWentWrong,
  logMessage: "moderation action failed",
};
const INLINE = ["decision", "days", "reasonCode", "publicReason", "privateNote", "note"] as const;

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireStaff(app, viewer, null));
  const form = await readForm(args.request);
  const intent = readIntent(form, ITEM_INTENTS);
  // The item is the page's; the domain parses every field (a File or a missing one is refused).
  const fields = { ...formFields(form), itemId: args.params.id };
  const M = STAFF_DECISION_MESSAGES.decided;
  try {
    let message: string;
    if (intent === "decide-item") {
      const { decision } = await orNotFound(decideItem(app, viewer, fields as DecideItemInput));
      message = M[decision];
    } else if (intent === "decide-appeal") {
      const { decision } = await orNotFound(decideAppeal(app, viewer, fields as DecideAppealInput));
      message = decision === "approve" ? M.approve_appeal : M.reject_appeal;
    } else if (intent === "restore-content") {
      await orNotFound(restoreItemContent(app, viewer, fields as ItemActionInput));
      message = M.restore;
    } else if (intent === "mute-reporter" || intent === "unmute-reporter") {
      const muted = intent === "mute-reporter";
      await orNotFound(
        setReporterMuted(app, viewer, { ...fields, muted: String(muted) } as ReporterMuteInput),
      );
      message = muted ? M.mute_reporter : M.unmute_reporter;
    } else if (intent === "lift-suspension") {
      await orNotFound(liftItemSuspension(app, viewer, fields as ItemActionInput));
      message = M.lift;
    } else {
      await orNotFound(sendNoteToStudent(app, viewer, fields as SendNoteInput));
      message = M.note;
    }
    const toast: ToastInput = { message, type: "okay" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: INLINE, ...FAILURES });
  }
}

/**
 * /mod/items/:id (decision 0541): what was reported and by whom, the content as its author
 * wrote it, the author's record, and the staff's actions (decision 0543), or an appeal's
 * strike, text and decision (decision 0544).
 */
export default function ModerationItem({ loaderData, actionData }: Route.ComponentProps) {
  const view = loaderData;
  const { item } = view;
  useActionToast(actionData?.toast);
  return (
    <article aria-labelledby="item-title" className="flex min-w-0 flex-col gap-4">
      <nav>
        <Link to="/mod" className="text-sm font-semibold text-brand-700 hover:underline">
          ← Queue
        </Link>
      </nav>
      <header className="flex flex-col gap-1">
        <h1
          id="item-title"
          className="flex flex-wrap items-center gap-2 text-xl font-bold tracking-tight text-zinc-900 md:text-2xl"
        >
          {item.kindLabel}
          <span className="text-base font-normal text-zinc-600">· {item.campusName}</span>
          {item.overdue ? <Badge tone="amber">Overdue</Badge> : null}
          {item.hidden ? <Badge tone="zinc">Hidden</Badge> : null}
          {item.toAdmins ? <Badge tone="violet">Site admins</Badge> : null}
        </h1>
        {item.state === "decided" ? (
          <p className="text-sm text-zinc-700">
            {`Decided: ${item.decision?.replace("_", " ") ?? ""}${item.decidedBy ? ` by ${item.decidedBy}` : ""}${
              item.decidedAt ? ` on ${new Date(item.decidedAt).toUTCString()}` : ""
            }`}
          </p>
        ) : (
          <p className="text-sm text-zinc-600">Waiting since {new Date(item.openedAt).toUTCString()}</p>
        )}
      </header>
      <NoScriptMessage toast={actionData?.toast} />
      {/* One column: the shell's main column is narrow beside the campus panel at every width. */}
      <ItemContentPanel view={view} />
      {item.kind === "appeal" ? null : <ReportsPanel view={view} />}
      <DecisionForms view={view} actionData={actionData} />
      <AuthorRecordPanel view={view} />
    </article>
  );
}
