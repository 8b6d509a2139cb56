import { data } from "react-router";
import { listRecentMail } from "~/server/mail/outbox";
import type { Route } from "./+types/mail";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta() {
  return [
    { title: "Development mailbox | Campus Buy Sell" },
    // A developer tool: never in search results.
    { name: "robots", content: "noindex, nofollow" },
  ];
}

/**
 * The development mailbox (docs/contract.md 'Environment', SMTP_URL): without an
 * SMTP server, codes and links are read here. It lists every address's mail,
 * so it does not exist in production.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { config, db } = context.app;
  if (config.production) throw data(null, { status: 404 });
  const mail = await listRecentMail(db);
  return {
    smtp: config.smtpUrl !== null,
    mail: mail.map((entry) => ({
      id: entry.id,
      campusId: entry.campusId,
      to: entry.to,
      subject: entry.subject,
      text: entry.text,
      status: entry.status,
      attempts: entry.attempts,
      lastError: entry.lastError,
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}

// The same text on server and client (no time zone), so hydration matches.
function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** The body with its links clickable, so a reset link can be followed from here. */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move.
          <a key={index} href={part} className="break-all text-brand-700 underline underline-offset-2">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

const statusStyle = {
  sent: "bg-green-50 text-green-800 ring-green-600/30",
  pending: "bg-amber-50 text-amber-900 ring-amber-600/30",
  failed: "bg-red-50 text-red-800 ring-red-600/30",
  dropped: "bg-zinc-50 text-zinc-700 ring-zinc-600/30",
} as const;

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { mail, smtp } = loaderData;
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-6" aria-labelledby="dev-mail-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="dev-mail-title" className="text-2xl font-bold text-zinc-900">
          Development mailbox
        </h1>
        <a href="/dev/mail" className="text-sm font-semibold text-brand-700 underline underline-offset-2">
          Refresh
        </a>
      </div>
      <p className="mt-2 text-sm text-zinc-700">
        Every mail the app queued, newest first.{" "}
        {smtp
          ? "SMTP_URL is set, so these were also handed to that SMTP server."
          : "SMTP_URL is not set, so nothing left this machine: read verification codes and links here."}{" "}
        This page does not exist in production.
      </p>

      {mail.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-zinc-600">
          No mail yet. Sign up or ask for a password reset, then refresh this page.
        </p>
      ) : (
        <ol className="mt-6 space-y-4">
          {mail.map((entry) => (
            <li key={entry.id}>
              <article
                className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm"
                aria-labelledby={`mail-${entry.id}`}
              >
                <header className="flex flex-wrap items-start justify-between gap-2">
                  <h2 id={`mail-${entry.id}`} className="text-base font-semibold text-zinc-900">
                    {entry.subject}
                  </h2>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusStyle[entry.status]}`}
                  >
                    {entry.status}
                  </span>
                </header>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-zinc-600">To</dt>
                  <dd className="break-all text-zinc-900">{entry.to}</dd>
                  <dt className="text-zinc-600">Queued</dt>
                  <dd className="text-zinc-900">
                    <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
                  </dd>
                  <dt className="text-zinc-600">Attempts</dt>
                  <dd className="text-zinc-900">{entry.attempts}</dd>
                  <dt className="text-zinc-600">Campus</dt>
                  <dd className="text-zinc-900">{entry.campusId}</dd>
                  {entry.lastError ? (
                    <>
                      <dt className="text-zinc-600">Last error</dt>
                      <dd className="break-words text-red-800">{entry.lastError}</dd>
                    </>
                  ) : null}
                </dl>
                <pre className="mt-3 overflow-x-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-3 font-sans text-sm text-zinc-800">
                  <MailText text={entry.text} />
                </pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
