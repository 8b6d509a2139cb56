import { data } from "react-router";
import { z } from "zod";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { chatFailure } from "~/app/routes/messages/chat-action.server";
import { submitTradeForm, TRADE_INTENTS } from "~/server/trade/trade-forms";
import type { Route } from "./+types/trade";

const INTENTS = z.enum(TRADE_INTENTS);

/**
 * The trade's forms (decisions 0601–0604): the offer dialog, an offer card's buttons, the deal's
 * actions and 'Mark sold to…'. A new offer goes to its conversation; the rest answer in place
 * (the thread reloads on the chat event every change publishes).
 */
export async function action(args: Route.ActionArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  try {
    const answer = await submitTradeForm(app, viewer, intent, formFields(form));
    if (answer.chatId) {
      throw await redirectWithToast(`/messages/${answer.chatId}`, {
        message: answer.message,
        type: "success",
      });
    }
    return data({ ok: true as const, intent, toast: { message: answer.message, type: "success" as const } });
  } catch (error) {
    if (error instanceof Response) throw error;
    return chatFailure(app, error, intent);
  }
}
