import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { useToast } from "~/app/components/ui/toaster";
import type { ReportActionData } from "~/app/lib/report.server";
import type { ReportReason } from "~/server/db/schema/reports";
import { REPORT_LIMITS, REPORT_MESSAGES, REPORT_REASON_LABELS } from "~/server/moderation/rules.shared";
import type { ReportTarget } from "./use-report";

/** The reasons in the dialog's order (the labels' order, decision 0540). */
const REASONS = Object.keys(REPORT_REASON_LABELS) as ReportReason[];

/**
 * The one report dialog (decision 0540): the six reasons in order, an optional comment of up to
 * 1,000 characters with its counter, Submit and Cancel. It posts the intent 'report-content' to
 * the page action that serves the target (`target.action`). A refusal is shown in the dialog; a
 * report filed closes it and says so in a toast ('Post reported. Thanks for letting us know.',
 * or 'Report updated'). Loaded only when a Report is first chosen (use-report.tsx).
 */
export function ReportDialog({
  target,
  open,
  onOpenChange,
}: {
  target: ReportTarget;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const fetcher = useFetcher<ReportActionData>();
  const toast = useToast();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();
  const sending = fetcher.state !== "idle";

  // A new target (another Report chosen): a fresh form.
  const key = `${target.kind}:${target.id}`;
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setReason(null);
    setComment("");
    setProblem(null);
  }

  const answer = fetcher.data;
  // The answer is read as soon as the action returns, while the page revalidates: a report that
  // hides the post makes the page drop it (and this dialog) in the same render as the fetcher goes
  // idle, and the reporter must still be told it was filed.
  const handled = useRef<ReportActionData | null>(null);
  useEffect(() => {
    if (fetcher.state === "submitting" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.ok) {
      if (answer.toast) toast.show(answer.toast);
      onOpenChange(false);
      setReason(null);
      setComment("");
    } else {
      setProblem(answer.toast?.message ?? null);
    }
  }, [answer, fetcher.state, toast, onOpenChange]);

  function submit() {
    if (!reason) {
      setProblem(REPORT_MESSAGES.chooseReason);
      return;
    }
    setProblem(null);
    fetcher.submit(
      { intent: "report-content", targetKind: target.kind, targetId: target.id, reason, comment },
      { method: "post", action: target.action },
    );
  }

  const formId = `${ids}-form`;
  const problemId = `${ids}-problem`;
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) setProblem(null);
        onOpenChange(next);
      }}
      title={REPORT_MESSAGES.dialogTitle[target.kind]}
      description={REPORT_MESSAGES.dialogDescription}
      dismissible={!sending}
      footer={
        <>
          <Button type="button" variant="secondary" disabled={sending} onClick={() => onOpenChange(false)}>
            {REPORT_MESSAGES.cancel}
          </Button>
          <Button type="submit" form={formId} processing={sending}>
            {REPORT_MESSAGES.submit}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        method="post"
        action={target.action}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="flex flex-col gap-4"
      >
        <fieldset aria-describedby={problem ? problemId : undefined}>
          <legend className="mb-2 text-sm font-semibold text-zinc-900">{REPORT_MESSAGES.reasonLegend}</legend>
          <div className="flex flex-col gap-1">
            {REASONS.map((code) => (
              <label
                key={code}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 text-[15px] text-zinc-800 hover:bg-zinc-50 has-[:checked]:bg-brand-50 has-[:checked]:font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
              >
                <input
                  type="radio"
                  name="reason"
                  value={code}
                  checked={reason === code}
                  onChange={() => {
                    setReason(code);
                    setProblem(null);
                  }}
                  className="size-4 accent-brand-600"
                />
                {REPORT_REASON_LABELS[code]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${ids}-comment`} className="text-sm font-medium text-zinc-800">
            {REPORT_MESSAGES.commentLabel}
          </label>
          <textarea
            id={`${ids}-comment`}
            name="comment"
            rows={3}
            maxLength={REPORT_LIMITS.commentMax}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            aria-describedby={`${ids}-count`}
            className="resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
          />
          <p id={`${ids}-count`} className="self-end text-xs text-zinc-500 tabular-nums">
            {comment.length} / {REPORT_LIMITS.commentMax}
          </p>
        </div>
        {problem ? (
          <p
            id={problemId}
            role="alert"
            className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200"
          >
            {problem}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
