import { type ReactNode, useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { type ConsoleActionData, Panel } from "~/app/components/admin/console-parts";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import {
  MEETUP_MESSAGES,
  SPOT_KIND_LABELS,
  SPOT_KINDS,
  SPOT_LIMITS,
} from "~/server/trade/meetup-rules.shared";
import type { MeetupSpotView } from "~/server/trade/meetup-spots";

const inputClass =
  "w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20";

const smallButton =
  "rounded-full border border-zinc-300 px-3 py-1 text-sm font-semibold hover:bg-zinc-50 disabled:text-zinc-400";

function useSpotsFetcher() {
  const fetcher = useFetcher<ConsoleActionData>();
  useActionToast(fetcher.data?.toast);
  return fetcher;
}

/** One field of the spot form, with its label and its message from the server. */
function Field({
  id,
  name,
  label,
  error,
  children,
}: {
  id: string;
  name: string;
  label: string;
  error: string | null;
  children: (props: {
    id: string;
    name: string;
    "aria-invalid"?: true;
    "aria-describedby"?: string;
  }) => ReactNode;
}) {
  const fieldId = `${id}-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children({
        id: fieldId,
        name,
        ...(error ? { "aria-invalid": true as const, "aria-describedby": `${fieldId}-error` } : {}),
      })}
      {error ? (
        <p id={`${fieldId}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Decision 0610: a spot's form, to add one or to edit one (`spot`). */
function SpotForm({ action, spot }: { action: string; spot?: MeetupSpotView }) {
  const fetcher = useSpotsFetcher();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const error = (field: string) =>
    fetcher.data?.fieldError?.field === field ? fetcher.data.fieldError.message : null;
  // An added spot empties the form for the next one.
  useEffect(() => {
    if (!spot && fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [spot, fetcher.state, fetcher.data]);
  return (
    <fetcher.Form ref={form} method="post" action={action} className="grid grid-cols-1 gap-3 md:grid-cols-2">
      <input type="hidden" name="intent" value={spot ? "edit-spot" : "add-spot"} />
      {spot ? <input type="hidden" name="spotId" value={spot.id} /> : null}
      <Field id={id} name="name" label="Name" error={error("name")}>
        {(props) => (
          <input
            {...props}
            required
            maxLength={SPOT_LIMITS.name}
            defaultValue={spot?.name}
            autoComplete="off"
            className={inputClass}
          />
        )}
      </Field>
      <Field id={id} name="kind" label="Kind" error={error("kind")}>
        {(props) => (
          <select {...props} required defaultValue={spot?.kind ?? "police"} className={inputClass}>
            {SPOT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {SPOT_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={id} name="address" label="Address" error={error("address")}>
        {(props) => (
          <input
            {...props}
            required
            maxLength={SPOT_LIMITS.address}
            defaultValue={spot?.address}
            autoComplete="off"
            className={inputClass}
          />
        )}
      </Field>
      <Field id={id} name="hours" label="Hours (optional)" error={error("hours")}>
        {(props) => (
          <input
            {...props}
            maxLength={SPOT_LIMITS.hours}
            defaultValue={spot?.hours}
            autoComplete="off"
            className={inputClass}
          />
        )}
      </Field>
      <div className="md:col-span-2">
        <Field id={id} name="rules" label="Rules (optional)" error={error("rules")}>
          {(props) => (
            <textarea
              {...props}
              rows={2}
              maxLength={SPOT_LIMITS.rules}
              defaultValue={spot?.rules}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <div className="md:col-span-2">
        <Button type="submit" variant="secondary" processing={fetcher.state !== "idle"}>
          {spot ? "Save" : "Add spot"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** A one-button form of a listed spot (move, remove). */
function SpotButton({
  action,
  intent,
  spotId,
  label,
  children,
  extra,
}: {
  action: string;
  intent: string;
  spotId: string;
  label: string;
  children: ReactNode;
  extra?: Record<string, string>;
}) {
  const fetcher = useSpotsFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="spotId" value={spotId} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" aria-label={label} disabled={fetcher.state !== "idle"} className={smallButton}>
        {children}
      </button>
    </fetcher.Form>
  );
}

/**
 * /admin/campuses/:id's 'Meetup spots' (decision 0610): the safe places students of this campus
 * pick from when they propose a meetup, in the order they see them; each change is logged.
 */
export function MeetupSpotsSection({
  campusId,
  spots,
  limit,
}: {
  campusId: string;
  spots: MeetupSpotView[];
  limit: number;
}) {
  const action = `/admin/campuses/${encodeURIComponent(campusId)}/spots`;
  return (
    <Panel title="Meetup spots" id="meetup-spots-title">
      <p className="text-sm text-zinc-600">
        The safe places students pick from when they propose a meetup, in this order. Enter only real places
        the school allows; removing one keeps it on meetups already proposed there.
      </p>
      {spots.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600">No meetup spots yet: students can't propose a meetup.</p>
      ) : (
        <ol className="mt-3 divide-y divide-zinc-100">
          {spots.map((spot, index) => (
            <li key={spot.id} className="flex flex-col gap-2 py-3">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0 text-sm">
                  <p className="font-semibold break-words text-zinc-900">{spot.name}</p>
                  <p className="text-zinc-600">{SPOT_KIND_LABELS[spot.kind]}</p>
                  <p className="break-words text-zinc-700">{spot.address}</p>
                  {spot.hours ? <p className="break-words text-zinc-700">Hours: {spot.hours}</p> : null}
                  {spot.rules ? <p className="break-words text-zinc-700">Rules: {spot.rules}</p> : null}
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  {index > 0 ? (
                    <SpotButton
                      action={action}
                      intent="move-spot"
                      spotId={spot.id}
                      extra={{ direction: "up" }}
                      label={`Move ${spot.name} up`}
                    >
                      ↑
                    </SpotButton>
                  ) : null}
                  {index < spots.length - 1 ? (
                    <SpotButton
                      action={action}
                      intent="move-spot"
                      spotId={spot.id}
                      extra={{ direction: "down" }}
                      label={`Move ${spot.name} down`}
                    >
                      ↓
                    </SpotButton>
                  ) : null}
                  <SpotButton
                    action={action}
                    intent="remove-spot"
                    spotId={spot.id}
                    label={`Remove ${spot.name}`}
                  >
                    Remove
                  </SpotButton>
                </div>
              </div>
              <details className="text-sm">
                <summary className="cursor-pointer font-semibold text-brand-700">
                  Edit<span className="sr-only"> {spot.name}</span>
                </summary>
                <div className="mt-2">
                  <SpotForm key={JSON.stringify(spot)} action={action} spot={spot} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
      {spots.length < limit ? (
        <div className="mt-4 border-t border-zinc-100 pt-4">
          <h3 className="mb-2 text-sm font-bold text-zinc-900">Add a spot</h3>
          <SpotForm action={action} />
        </div>
      ) : (
        <p className="mt-3 text-sm text-zinc-600">{MEETUP_MESSAGES.tooManySpots}</p>
      )}
    </Panel>
  );
}
