import { data } from "react-router";
import type { Viewer } from "~/server/accounts/viewer";
import type { AppContext } from "~/server/context";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { fileReport } from "~/server/moderation/reports";
import { failureReply } from "./errors.server";
import { formFields } from "./form.server";
import type { ToastInput } from "./toast";

/** The one intent of the report dialog (decision 0540), on every page action that serves a 'Report'. */
export const REPORT_INTENT = "report-content";

/** What the report dialog's fetcher reads: on success the confirmation, else the refusal to show in the dialog. */
export interface ReportActionData {
  intent: typeof REPORT_INTENT;
  ok: boolean;
  toast?: ToastInput | null;
}

/**
 * Decision 0540: the report dialog's form, one way wherever it is sent from (the post page's action
 * for posts and comments, as the cards' Save does; the chat's for its messages; the profile's for
 * its member). The domain parses the fields; a refusal is the dialog's message, except an e-mail
 * not verified, which goes to /verify as every participation gate does (spec 1 §6).
 */
export async function reportContent(app: AppContext, viewer: Viewer | null, form: FormData) {
  try {
    const filed = await fileReport(app, viewer, formFields(form));
    return data<ReportActionData>({
      intent: REPORT_INTENT,
      ok: true,
      toast: { message: filed.message, type: "success" },
    });
  } catch (error) {
    return failureReply(app, error, {
      intent: REPORT_INTENT,
      fallback: SOMETHING_WENT_WRONG,
      logMessage: "report failed",
      elsewhere: (refusal) => (refusal.code === "verify-email" ? "/verify" : null),
    });
  }
}
