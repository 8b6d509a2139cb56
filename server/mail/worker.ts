import type { AppContext } from "../context";
import { composeNotificationMail, NOTIFICATION_MAIL_KIND } from "../notifications/email";
import { deliverDuePush, PUSH_BATCH_SIZE } from "../notifications/push";
import { deliverDueMail, MAIL_BATCH_SIZE, type MailComposers } from "./outbox";

/** Decision 0251: mails written when sent, by kind. */
export const mailComposers: MailComposers = { [NOTIFICATION_MAIL_KIND]: composeNotificationMail };

/**
 * One run of the deliver-mail job (server/jobs/jobs.ts): the due outbox, and the web pushes
 * notify() owes (decision 0252). No push goes to a user with a live stream open in any process
 * (decision 0331). Every process runs it: the outbox shares its rows out (FOR UPDATE SKIP LOCKED).
 */
export async function deliverMailRound(ctx: AppContext): Promise<{ more: boolean }> {
  const { sent, retrying, failed } = await deliverDueMail(ctx, MAIL_BATCH_SIZE, mailComposers);
  const pushed = await deliverDuePush(ctx, { limit: PUSH_BATCH_SIZE });
  // A full batch means more may be due: keep going rather than wait for the next tick.
  return {
    more:
      sent + retrying + failed >= MAIL_BATCH_SIZE ||
      pushed.sent + pushed.expired + pushed.refused + pushed.failed >= PUSH_BATCH_SIZE,
  };
}
