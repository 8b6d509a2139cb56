import type { AppContext } from "../context";
import { deliverDueMail, MAIL_BATCH_SIZE } from "./outbox";

export interface MailWorker {
  wake(): void;
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
}

/** Delivers the outbox in this process: on a timer, and at once when woken after a commit. */
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
          const { sent, retrying, failed } = await deliverDueMail(ctx, MAIL_BATCH_SIZE);
          // A full batch means more may be due: keep going rather than wait for the next poll.
          full = sent + retrying + failed >= MAIL_BATCH_SIZE;
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
