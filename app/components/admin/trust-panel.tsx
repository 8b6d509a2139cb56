import { useId } from "react";
import { useFetcher } from "react-router";
import { TrustConditions } from "~/app/components/trust/trust-conditions";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { TRUST_LEVEL_NAMES, TRUST_LEVELS, type TrustCondition } from "~/server/trust/levels.shared";
import { Badge, type ConsoleActionData, inputClass, Panel, utc } from "./console-parts";

/** The standing the console's student page shows (server/trust/standing.ts, as the loader serialises it). */
export interface ConsoleTrustStanding {
  level: number;
  name: string;
  reasons: TrustCondition[];
  next: { name: string; conditions: TrustCondition[] } | null;
  whatLifts: string | null;
  locked: { at: Date | string; byName: string | null } | null;
}

/**
 * Decision 0663: the student's trust level, what it rests on and the next level's conditions,
 * and 'Lock at level N' / 'Unlock' with a reason (site admins only; the server decides).
 */
export function TrustPanel({ trust, canLock }: { trust: ConsoleTrustStanding; canLock: boolean }) {
  const fetcher = useFetcher<ConsoleActionData>();
  const id = useId();
  useActionToast(fetcher.data?.toast);
  const error = fetcher.data?.fieldError;
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <Panel title="Trust level" id="trust-title">
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-3" data-testid="console-trust">
          <p className="flex flex-wrap items-center gap-2">
            <span className="text-lg font-semibold text-zinc-900" data-testid="console-trust-level">
              {trust.level} · {trust.name}
            </span>
            {trust.locked ? <Badge tone="amber">Locked</Badge> : null}
          </p>
          {trust.locked ? (
            <p className="text-sm text-zinc-600">
              Locked {utc(trust.locked.at)}
              {trust.locked.byName ? ` by ${trust.locked.byName}` : ""}; the recount leaves it as set.
            </p>
          ) : null}
          {trust.reasons.length > 0 ? (
            <div>
              <h3 className="text-sm font-medium text-zinc-500">Why {trust.name}</h3>
              <TrustConditions items={trust.reasons} />
            </div>
          ) : (
            <p className="text-sm text-zinc-600">New: no condition met yet.</p>
          )}
          {trust.next ? (
            <div>
              <h3 className="text-sm font-medium text-zinc-500">Next: {trust.next.name}</h3>
              <TrustConditions items={trust.next.conditions} />
            </div>
          ) : null}
          {trust.whatLifts ? <p className="text-sm text-zinc-700">{trust.whatLifts}</p> : null}
        </div>
        {canLock ? (
          <fetcher.Form method="post" aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
            <div>
              <h3 id={`${id}-title`} className="font-semibold text-zinc-900">
                Lock the level
              </h3>
              <p className="text-sm text-zinc-600">
                A locked level stays as set until unlocked; unlocking recounts it at once.
              </p>
            </div>
            <input type="hidden" name="intent" value="trust-lock" />
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-level`} className="text-sm font-medium text-zinc-800">
                Level
              </label>
              <select
                id={`${id}-level`}
                name="level"
                className={inputClass}
                defaultValue={String(trust.level)}
              >
                {TRUST_LEVELS.map((level) => (
                  <option key={level} value={String(level)}>
                    Lock at {level} · {TRUST_LEVEL_NAMES[level]}
                  </option>
                ))}
                {trust.locked ? <option value="unlock">Unlock</option> : null}
              </select>
              {errorOf("level") ? <p className="text-sm text-red-700">{errorOf("level")}</p> : null}
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-reason`} className="text-sm font-medium text-zinc-800">
                Reason (staff only)
              </label>
              <textarea
                id={`${id}-reason`}
                name="reason"
                required
                maxLength={500}
                rows={2}
                className={inputClass}
                aria-invalid={errorOf("reason") ? true : undefined}
              />
              {errorOf("reason") ? <p className="text-sm text-red-700">{errorOf("reason")}</p> : null}
            </div>
            <div>
              <Button type="submit" variant="secondary" processing={fetcher.state !== "idle"}>
                Save level
              </Button>
            </div>
          </fetcher.Form>
        ) : null}
      </div>
    </Panel>
  );
}
