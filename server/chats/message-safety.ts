import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { checkSafety } from "../safety/check";
import { flagRepeatedWarnings } from "../safety/flag";
import type { CheckedMessage } from "./content";
import type { LockedSender } from "./messages";

/**
 * docs/product/safety.md: the message's text through the one safety check, inside the send's
 * transaction. A block or an unconfirmed nudge throws (nothing stored, nothing delivered); a
 * warning is returned for appendMessage to store, and `afterStored` counts it toward the flag.
 */
export async function checkMessageSafety(
  ctx: AppContext,
  tx: Tx,
  sender: { id: string } & LockedSender,
  recipientId: string,
  message: CheckedMessage,
  acknowledgedNudge: boolean,
): Promise<{ ruleId: string | null; afterStored: () => Promise<void> }> {
  const warning = await checkSafety(tx, ctx, {
    writer: { id: sender.id, createdAt: sender.createdAt },
    scope: "chat",
    text: message.text,
    recipientId,
    acknowledgedNudge,
  });
  return {
    ruleId: warning?.ruleId ?? null,
    afterStored: async () => {
      if (warning?.countsTowardFlag) await flagRepeatedWarnings(ctx, tx, sender.id);
    },
  };
}
