import { data } from "react-router";
import { z } from "zod";
import { failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import type { MeetupRefInput, ProposeMeetupInput } from "~/server/trade/meetup-rules.shared";
import { MEETUP_MESSAGES } from "~/server/trade/meetup-rules.shared";
import { acceptMeetup, proposeMeetup } from "~/server/trade/meetups";
import type { Route } from "./+types/meetup";

// Decision 0140: every route module answers errors the same way.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

const INTENTS = z.enum(["propose-meetup", "accept-meetup"]);

/**
 * Decision 0611: a conversation's meetup forms ('Propose meetup', 'Suggest another', Accept). The
 * chat is the address's; who may act is the domain's question (a stranger's chat is a 404).
 */
export async function action(args: Route.ActionArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  const fields = formFields(form);
  try {
    if (intent === "propose-meetup") {
      await proposeMeetup(app, viewer, args.params.chatId, fields as ProposeMeetupInput);
      return data({
        ok: true as const,
        intent,
        toast: { message: MEETUP_MESSAGES.proposed, type: "okay" as const },
      });
    }
    await acceptMeetup(app, viewer, args.params.chatId, fields as MeetupRefInput);
    return data({
      ok: true as const,
      intent,
      toast: { message: MEETUP_MESSAGES.accepted, type: "okay" as const },
    });
  } catch (error) {
    return failureReply(app, error, {
      intent,
      inlineFields: ["spotId", "meetsAt"],
      fallback: MEETUP_MESSAGES.somethingWentWrong,
      logMessage: "meetup action failed",
    });
  }
}
