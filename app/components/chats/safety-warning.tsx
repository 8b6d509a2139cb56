import { Link } from "react-router";
import { useReport } from "~/app/components/moderation/use-report";

/**
 * docs/product/safety.md 'Warnings': the card the product draws under a message the viewer
 * received when a warn rule matched it. Drawn by the product, outside the bubble, from the rule's
 * words (the server sends them only to the recipient), never from the message's own text, so a
 * message cannot forge one. 'Report' opens the report dialog for that message.
 */
export function SafetyWarningCard({
  warning,
  messageId,
  chatId,
}: {
  warning: { ruleKey: string; message: string };
  messageId: string;
  chatId: string;
}) {
  const report = useReport();
  return (
    <aside
      aria-label="Safety warning"
      data-testid="safety-warning"
      data-rule={warning.ruleKey}
      className="mt-1 w-full max-w-[min(28rem,90%)] rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p className="flex gap-2">
        <svg
          viewBox="0 0 24 24"
          className="mt-0.5 size-4 shrink-0 text-amber-700"
          fill="currentColor"
          aria-hidden="true"
        >
          <path d="M12 2 1 21h22L12 2Zm0 6 .9 7h-1.8L12 8Zm0 9.5a1.2 1.2 0 1 1 0 2.4 1.2 1.2 0 0 1 0-2.4Z" />
        </svg>
        <span>{warning.message}</span>
      </p>
      <p className="mt-1.5 flex gap-4 pl-6 font-semibold">
        <button
          type="button"
          className="text-amber-900 underline hover:text-amber-950"
          onClick={() => report.open({ kind: "message", id: messageId, action: `/messages/${chatId}` })}
        >
          Report
        </button>
        <Link to="/settings/trust_and_safety" className="text-amber-900 underline hover:text-amber-950">
          Safety tips
        </Link>
      </p>
      {report.dialog}
    </aside>
  );
}
