/**
 * docs/product/safety.md 'Nudges': before a message with a phone number or an e-mail address is
 * sent, the server answers with the rule's question and the composer shows it here. 'Edit' goes
 * back to the composer with the text kept; 'Send anyway' sends it as written.
 */
export function SafetyNudge({
  message,
  onEdit,
  onSendAnyway,
}: {
  message: string;
  onEdit: () => void;
  onSendAnyway: () => void;
}) {
  return (
    <div
      role="alertdialog"
      aria-label="Before you send"
      aria-describedby="safety-nudge-text"
      data-testid="safety-nudge"
      className="mb-2 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-zinc-900"
    >
      <p id="safety-nudge-text">{message}</p>
      <div className="mt-2 flex justify-end gap-2">
        <button
          type="button"
          onClick={onEdit}
          className="rounded-full px-3 py-1.5 font-semibold text-brand-700 hover:bg-brand-100"
        >
          Edit
        </button>
        <button
          type="button"
          onClick={onSendAnyway}
          className="rounded-full bg-brand-600 px-3 py-1.5 font-semibold text-white hover:bg-brand-700"
        >
          Send anyway
        </button>
      </div>
    </div>
  );
}
