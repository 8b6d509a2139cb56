import type { AppContext } from "../context";
import { type Poller, startPolling } from "../jobs/polling";
import { composeNotificationMail, NOTIFICATION_MAIL_KIND } from "../notifications/email";
import { deliverDuePush, PUSH_BATCH_SIZE } from "../notifications/push";
import { deliverDueMail, MAIL_BATCH_SIZE, type MailComposers } from "./outbox";

/** Decision 0251: mails written when sent, by kind. */
export const mailComposers: MailComposers = { [NOTIFICATION_MAIL_KIND]: composeNotificationMail };

export type MailWorker = Poller;

/**
 * Delivers the outbox in this process, and the web pushes notify() owes (decision 0252): on a
 * timer, and at once when woken after a commit. No push goes to a user with a live stream open
 * in any process (decision 0331).
 */
export function startMailWorker(ctx: AppContext, pollMs = 2_000): MailWorker {
  return startPolling({
    everyMs: pollMs,
    async round() {
      const { sent, retrying, failed } = await deliverDueMail(ctx, MAIL_BATCH_SIZE, mailComposers);
      const pushed = await deliverDuePush(ctx, { limit: PUSH_BATCH_SIZE });
      // A full batch means more may be due: keep going rather than wait for the next poll.
      return {
        more:
          sent + retrying + failed >= MAIL_BATCH_SIZE ||
          pushed.sent + pushed.expired + pushed.refused + pushed.failed >= PUSH_BATCH_SIZE,
      };
    },
    onError: (error) => ctx.log.error({ err: error }, "mail worker round failed"),
  });
}
