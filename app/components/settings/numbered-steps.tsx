/** A numbered sequence with a title and a sentence per step (how it works, the return flow). */
export function NumberedSteps({
  steps,
  className = "",
}: {
  steps: { title: string; text: string }[];
  className?: string;
}) {
  return (
    <ol className={`flex flex-col gap-5 ${className}`}>
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span
            aria-hidden="true"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 font-bold text-brand-700"
          >
            {index + 1}
          </span>
          <div>
            <h2 className="font-semibold text-zinc-900">{step.title}</h2>
            <p className="mt-1 text-[15px] leading-relaxed text-zinc-600">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
