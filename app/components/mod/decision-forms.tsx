import { useId, useState } from "react";
import { Form } from "react-router";
import { useSubmitting } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import type { ModerationItemView } from "~/server/moderation/item-view";
import {
  DECISION_LIMITS,
  ITEM_DECISION_LABELS,
  REASON_CODES,
  REPORT_REASON_LABELS,
  SUSPENSION_LABELS,
} from "~/server/moderation/rules.shared";
import { Panel } from "./item-panels";

interface ActionAnswer {
  intent?: string;
  ok?: boolean;
  fieldError?: { field: string; message: string } | null;
}

const inputClass =
  "w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-[15px] text-zinc-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none";

function FieldError({
  answer,
  intent,
  field,
}: {
  answer: ActionAnswer | undefined;
  intent: string;
  field: string;
}) {
  if (!answer || answer.intent !== intent || answer.fieldError?.field !== field) return null;
  return (
    <p role="alert" className="text-sm text-red-600">
      {answer.fieldError.message}
    </p>
  );
}

/** The reason category, the public reason and the private note every action asks for (decision 0543). */
function ReasonFields({
  intent,
  answer,
  withCategory = true,
  withNote = true,
}: {
  intent: string;
  answer: ActionAnswer | undefined;
  withCategory?: boolean;
  withNote?: boolean;
}) {
  const id = useId();
  return (
    <>
      {withCategory ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-category`} className="text-sm font-medium text-zinc-800">
            Reason category
          </label>
          <select id={`${id}-category`} name="reasonCode" required defaultValue="" className={inputClass}>
            <option value="" disabled>
              Choose a category
            </option>
            {REASON_CODES.map((reason) => (
              <option key={reason} value={reason}>
                {REPORT_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
          <FieldError answer={answer} intent={intent} field="reasonCode" />
        </div>
      ) : null}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-public`} className="text-sm font-medium text-zinc-800">
          Public reason <span className="font-normal text-zinc-600">(the student reads it)</span>
        </label>
        <textarea
          id={`${id}-public`}
          name="publicReason"
          required
          maxLength={DECISION_LIMITS.publicReasonMax}
          rows={3}
          className={inputClass}
        />
        <FieldError answer={answer} intent={intent} field="publicReason" />
      </div>
      {withNote ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-private`} className="text-sm font-medium text-zinc-800">
            Private note <span className="font-normal text-zinc-600">(optional, staff only)</span>
          </label>
          <textarea
            id={`${id}-private`}
            name="privateNote"
            maxLength={DECISION_LIMITS.privateNoteMax}
            rows={2}
            className={inputClass}
          />
          <FieldError answer={answer} intent={intent} field="privateNote" />
        </div>
      ) : null}
    </>
  );
}

/** Dismiss, Remove, Warn, Suspend or Ban, on the item's version (decisions 0541, 0543). */
function DecideForm({ view, answer }: { view: ModerationItemView; answer: ActionAnswer | undefined }) {
  const [decision, setDecision] = useState("");
  const submitting = useSubmitting("decide-item");
  return (
    <Panel title="Decide" id="decide-title">
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="decide-item" />
        <input type="hidden" name="version" value={view.item.version} />
        <fieldset className="flex flex-wrap gap-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800">Action</legend>
          {view.actions.decide.map((value) => (
            <label
              key={value}
              className="flex cursor-pointer items-center gap-1.5 rounded-full border border-zinc-300 px-3 py-1.5 text-sm has-checked:border-brand-600 has-checked:bg-brand-50"
            >
              <input
                type="radio"
                name="decision"
                value={value}
                required
                checked={decision === value}
                onChange={() => setDecision(value)}
              />
              {ITEM_DECISION_LABELS[value]}
            </label>
          ))}
        </fieldset>
        <FieldError answer={answer} intent="decide-item" field="decision" />
        {decision === "suspend" ? (
          <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
            For
            <select name="days" required defaultValue="3" className={inputClass}>
              {SUSPENSION_LABELS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <FieldError answer={answer} intent="decide-item" field="days" />
        <ReasonFields intent="decide-item" answer={answer} />
        <Button type="submit" processing={submitting} variant={decision === "ban" ? "danger" : "primary"}>
          {decision ? ITEM_DECISION_LABELS[decision as keyof typeof ITEM_DECISION_LABELS] : "Decide"}
        </Button>
      </Form>
    </Panel>
  );
}

/** Approve or Reject an appeal; the strike's actor is told they may not (decision 0544). */
function AppealForm({ view, answer }: { view: ModerationItemView; answer: ActionAnswer | undefined }) {
  const submitting = useSubmitting("decide-appeal");
  if (!view.appeal) return null;
  return (
    <Panel title="Decide the appeal" id="appeal-decide-title">
      {view.appeal.mayDecide ? (
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="decide-appeal" />
          <input type="hidden" name="version" value={view.item.version} />
          <ReasonFields intent="decide-appeal" answer={answer} withCategory={false} />
          <div className="flex gap-2">
            <Button type="submit" name="decision" value="approve" processing={submitting}>
              Approve
            </Button>
            <Button type="submit" name="decision" value="reject" variant="secondary" disabled={submitting}>
              Reject
            </Button>
          </div>
        </Form>
      ) : (
        <p className="text-sm text-zinc-700">
          You made the decision this appeal is about: another moderator decides it.
        </p>
      )}
    </Panel>
  );
}

/** Restore and Lift suspension: separate actions with their own reasons (decision 0543). */
function SmallAction({
  intent,
  title,
  button,
  answer,
}: {
  intent: "restore-content" | "lift-suspension";
  title: string;
  button: string;
  answer: ActionAnswer | undefined;
}) {
  const submitting = useSubmitting(intent);
  return (
    <Panel title={title} id={`${intent}-title`}>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={intent} />
        <ReasonFields intent={intent} answer={answer} withNote />
        <Button type="submit" variant="secondary" processing={submitting}>
          {button}
        </Button>
      </Form>
    </Panel>
  );
}

function NoteForm({ answer }: { answer: ActionAnswer | undefined }) {
  const submitting = useSubmitting("send-note");
  const id = useId();
  return (
    <Panel title="Send a note" id="note-title">
      <Form method="post" className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="send-note" />
        <label htmlFor={id} className="text-sm text-zinc-700">
          A friendly word to the student. Not a strike.
        </label>
        <textarea
          id={id}
          name="note"
          required
          maxLength={DECISION_LIMITS.noteMax}
          rows={3}
          className={inputClass}
        />
        <FieldError answer={answer} intent="send-note" field="note" />
        <Button type="submit" variant="secondary" processing={submitting}>
          Send note
        </Button>
      </Form>
    </Panel>
  );
}

export function DecisionForms({ view, actionData }: { view: ModerationItemView; actionData: unknown }) {
  const answer = (actionData ?? undefined) as ActionAnswer | undefined;
  const open = view.item.state === "open";
  return (
    <>
      {open && view.item.kind === "appeal" ? <AppealForm view={view} answer={answer} /> : null}
      {open && view.actions.decide.length > 0 ? <DecideForm view={view} answer={answer} /> : null}
      {view.actions.restore ? (
        <SmallAction intent="restore-content" title="Restore the content" button="Restore" answer={answer} />
      ) : null}
      {view.actions.lift ? (
        <SmallAction
          intent="lift-suspension"
          title="Lift the suspension"
          button="Lift suspension"
          answer={answer}
        />
      ) : null}
      {view.actions.note ? <NoteForm answer={answer} /> : null}
    </>
  );
}
