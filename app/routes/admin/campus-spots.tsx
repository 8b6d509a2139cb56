import { data } from "react-router";
import { z } from "zod";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { getViewer } from "~/app/lib/viewer.server";
import { ADMIN_MESSAGES } from "~/server/admin/errors.shared";
import { requireSiteAdmin } from "~/server/staff/roles";
import {
  type EditMeetupSpotInput,
  MEETUP_MESSAGES,
  type MeetupSpotInput,
  type MeetupSpotRefInput,
  type MoveMeetupSpotInput,
} from "~/server/trade/meetup-rules.shared";
import {
  addMeetupSpot,
  archiveMeetupSpot,
  editMeetupSpot,
  moveMeetupSpot,
} from "~/server/trade/meetup-spots";
import type { Route } from "./+types/campus-spots";

// Decision 0140: every route module answers errors the same way.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

const INTENTS = z.enum(["add-spot", "edit-spot", "remove-spot", "move-spot"]);

/** Decision 0610: the campus page's 'Meetup spots' forms; site admins only (anyone else: the 404). */
export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  const fields = { ...formFields(form), campusId: args.params.id };
  try {
    let message: string;
    if (intent === "add-spot") {
      await addMeetupSpot(app, viewer, fields as MeetupSpotInput);
      message = MEETUP_MESSAGES.spotAdded;
    } else if (intent === "edit-spot") {
      await editMeetupSpot(app, viewer, fields as EditMeetupSpotInput);
      message = MEETUP_MESSAGES.spotSaved;
    } else if (intent === "remove-spot") {
      await archiveMeetupSpot(app, viewer, fields as MeetupSpotRefInput);
      message = MEETUP_MESSAGES.spotRemoved;
    } else {
      await moveMeetupSpot(app, viewer, fields as MoveMeetupSpotInput);
      message = MEETUP_MESSAGES.spotMoved;
    }
    return data({ ok: true as const, intent, toast: { message, type: "okay" as const } });
  } catch (error) {
    return failureReply(app, error, {
      intent,
      inlineFields: ["name", "kind", "address", "hours", "rules"],
      fallback: ADMIN_MESSAGES.somethingWentWrong,
      logMessage: "console meetup spot action failed",
    });
  }
}
