import type { AppContext } from "../context";
import { composeNotificationMail, NOTIFICATION_MAIL_KIND } from "../notifications/email";
import { deliverDuePush, PUSH_BATCH_SIZE } from "../notifications/push";
import { deliverDueMail, MAIL_BATCH_SIZE, type MailComposers } from "./outbox";

/** Decision 0251: mails written when sent, by kind. */
export const mailComposers: MailComposers = { [NOTIFICATION_MAIL_KIND]: composeNotificationMail };

export interface MailWorker {
  wake(): void;
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
}

/**
 * Delivers the outbox in this process, and the web pushes notify() owes (decision 0252): on a
 * timer, and at once when woken after a commit. No push goes to a user with a live stream open
 * in any process (decision 0331).
 */
export function startMailWorker(ctx: AppContext, pollMs = 2_000): MailWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const round = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        let full = false;
        do {
          again = false;
          const { sent, retrying, failed } = await deliverDueMail(ctx, MAIL_BATCH_SIZE, mailComposers);
          const pushed = await deliverDuePush(ctx, { limit: PUSH_BATCH_SIZE });
          // A full batch means more may be due: keep going rather than wait for the next poll.
          full =
            sent + retrying + failed >= MAIL_BATCH_SIZE ||
            pushed.sent + pushed.expired + pushed.failed >= PUSH_BATCH_SIZE;
        } while ((again || full) && !stopped);
      } catch (error) {
        ctx.log.error({ err: error }, "mail worker round failed");
      } finally {
        running = null;
      }
    })();
  };

  const timer = setInterval(round, pollMs);
  timer.unref();
  round();

  return {
    wake: round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
