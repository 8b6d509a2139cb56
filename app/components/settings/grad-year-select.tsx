/**
 * The 'Graduation year' select of the school step, the renewal and the year page (decision 0680):
 * this year to this year + 7 as the loader read them from the clock, required, sent as `gradYear`;
 * its message under it, announced and tied to the select.
 */
export function GradYearSelect({
  id,
  name = "gradYear",
  years,
  defaultValue,
  error,
  label = "Graduation year",
}: {
  id: string;
  name?: string;
  years: readonly number[];
  defaultValue?: string;
  error?: string | null;
  label?: string;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        required
        defaultValue={defaultValue ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`rounded-lg border bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 ${error ? "border-red-500" : "border-zinc-300"}`}
      >
        <option value="">Choose a year</option>
        {years.map((year) => (
          <option key={year} value={String(year)}>
            {year}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
