import { data, Link } from "react-router";
import { z } from "zod";
import { ConsoleNav } from "~/app/components/admin/console-nav";
import { ActionForm, Badge, money, Panel, utc } from "~/app/components/admin/console-parts";
import { TrustPanel } from "~/app/components/admin/trust-panel";
import { pageTitle } from "~/app/components/shell/campus";
import { adminSessionOf } from "~/app/lib/admin-session.server";
import { failureReply, orNotFound } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { getViewer } from "~/app/lib/viewer.server";
import { ADMIN_MESSAGES } from "~/server/admin/errors.shared";
import { signInIsRecent } from "~/server/admin/reauth";
import type {
  BanStudentInput,
  LiftStudentInput,
  SignOutStudentInput,
  StudentActionInput,
  SuspendStudentInput,
} from "~/server/admin/schemas.shared";
import {
  banStudent,
  liftStudent,
  resendStudentCode,
  signOutStudentEverywhere,
  suspendStudent,
  verifyStudentEmail,
} from "~/server/admin/student-actions";
import { getStudentCard } from "~/server/admin/students";
import { isIndefinite, logActionWords, STRIKE_ACTION_LABELS } from "~/server/moderation/rules.shared";
import { requireSiteAdmin } from "~/server/staff/roles";
import { TRUST_LEVEL_NAMES } from "~/server/trust/levels.shared";
import { getStudentTrustStanding, setTrustLock, type TrustLockInput } from "~/server/trust/standing";
import type { Route } from "./+types/student";

/** Decision 0140: an error answers in this page's panel (the 404 panel for anyone but a site admin). */
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches, data: loaded }: Route.MetaArgs) {
  const name = loaded ? `${loaded.card.student.firstName} ${loaded.card.student.lastName}` : "Student";
  return [
    { title: pageTitle(`${name} · Students`, matches[0]?.loaderData?.campus) },
    { name: "robots", content: "noindex" },
  ];
}

/** Decision 0561: a student's card, site admins only; a crafted id is the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  const card = await orNotFound(getStudentCard(app, viewer, args.params.id));
  // Decision 0663: the level (recounted first), what it rests on, and the lock.
  const trust = await orNotFound(getStudentTrustStanding(app, viewer, args.params.id));
  const { token } = adminSessionOf(args.request);
  const recent = viewer ? await signInIsRecent(app, viewer.id, token) : false;
  return data({ card, trust, askPassword: !recent });
}

const INTENTS = z.enum([
  "suspend-student",
  "lift-suspension",
  "ban-student",
  "verify-email",
  "sign-out-everywhere",
  "resend-code",
  "trust-lock",
]);
const FAILURES = { fallback: ADMIN_MESSAGES.somethingWentWrong, logMessage: "console student action failed" };
const INLINE = ["days", "reasonCode", "reason", "password", "level"] as const;

export async function action(args: Route.ActionArgs) {
  const app = args.context.app;
  const viewer = await getViewer(args);
  // Before the form is read: nothing about the form may tell anyone else the page exists.
  await orNotFound(requireSiteAdmin(app, viewer));
  const form = await readForm(args.request);
  const intent = readIntent(form, INTENTS);
  // The student is the page's; the domain parses every field.
  const fields = { ...formFields(form), studentId: args.params.id };
  const own = adminSessionOf(args.request);
  const sessions = args.context.auth.sessionLookups;
  try {
    let message: string;
    if (intent === "suspend-student") {
      await orNotFound(suspendStudent(app, viewer, fields as SuspendStudentInput, own));
      message = "Suspended, and the student was told why and until when.";
    } else if (intent === "ban-student") {
      await orNotFound(banStudent(app, viewer, fields as BanStudentInput, own, sessions));
      message = "Banned and signed out everywhere.";
    } else if (intent === "lift-suspension") {
      await orNotFound(liftStudent(app, viewer, fields as LiftStudentInput));
      message = "Suspension lifted.";
    } else if (intent === "verify-email") {
      await orNotFound(verifyStudentEmail(app, viewer, fields as StudentActionInput));
      message = "E-mail address marked verified.";
    } else if (intent === "sign-out-everywhere") {
      const { sessionsEnded } = await orNotFound(
        signOutStudentEverywhere(app, viewer, fields as SignOutStudentInput, own, sessions),
      );
      message = `Signed out of ${sessionsEnded} ${sessionsEnded === 1 ? "session" : "sessions"}.`;
    } else if (intent === "trust-lock") {
      const result = await orNotFound(setTrustLock(app, viewer, fields as TrustLockInput));
      message = result.locked
        ? `Trust level locked at ${TRUST_LEVEL_NAMES[result.level]}.`
        : "Trust level unlocked and recounted.";
    } else {
      await orNotFound(resendStudentCode(app, viewer, fields as StudentActionInput));
      message = "A new code is on its way.";
    }
    const toast: ToastInput = { message, type: "okay" };
    return data({ ok: true as const, intent, toast });
  } catch (error) {
    return failureReply(app, error, { intent, inlineFields: INLINE, ...FAILURES });
  }
}

/**
 * /admin/students/:id (decision 0561): who the student is, their standing and activity (counts,
 * never a conversation's content), their ads, payments and sessions, the staff's log about them,
 * and the console's actions.
 */
export default function StudentCard({ loaderData }: Route.ComponentProps) {
  const { card, trust, askPassword } = loaderData;
  const { student, counts } = card;
  const suspendedUntil = student.suspendedUntil ? new Date(student.suspendedUntil) : null;
  return (
    <article aria-labelledby="student-title" className="flex min-w-0 flex-col gap-4">
      <ConsoleNav />
      <nav>
        <Link to="/admin/students" className="text-sm font-semibold text-brand-700 hover:underline">
          ← Find another student
        </Link>
      </nav>
      <header className="flex flex-col gap-2">
        <h1
          id="student-title"
          className="text-xl font-bold tracking-tight break-words text-zinc-900 md:text-2xl"
        >
          {student.firstName} {student.lastName}
        </h1>
        <p className="text-sm break-all text-zinc-600">
          @{student.username} · {student.campusName} · joined {utc(student.createdAt)}
        </p>
        <ul className="flex flex-wrap gap-2" aria-label="Status">
          <li>
            {student.verified ? (
              <Badge tone="green">E-mail verified</Badge>
            ) : (
              <Badge tone="amber">E-mail not verified</Badge>
            )}
          </li>
          <li>
            {student.schoolVerified ? (
              <Badge tone="green">School verified</Badge>
            ) : (
              <Badge tone="zinc">No school e-mail</Badge>
            )}
          </li>
          {student.banned ? (
            <li>
              <Badge tone="red">Banned</Badge>
            </li>
          ) : null}
          {student.suspended && suspendedUntil ? (
            <li>
              <Badge tone="red">
                {isIndefinite(suspendedUntil)
                  ? "Suspended until lifted"
                  : `Suspended until ${utc(suspendedUntil)}`}
              </Badge>
            </li>
          ) : null}
          {student.deletedAt ? (
            <li>
              <Badge tone="zinc">Account deleted</Badge>
            </li>
          ) : null}
        </ul>
      </header>

      <div className="flex flex-col gap-4">
        <Panel title="Account" id="account-title">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-zinc-500">E-mail</dt>
            <dd className="break-all">{student.email}</dd>
            <dt className="text-zinc-500">School e-mail</dt>
            <dd className="break-all">{student.schoolEmail ?? "—"}</dd>
            <dt className="text-zinc-500">Account id</dt>
            <dd className="font-mono text-xs break-all">{student.id}</dd>
          </dl>
        </Panel>
        <Panel title="Activity" id="activity-title">
          <dl className="grid grid-cols-2 gap-3 text-sm md:grid-cols-3">
            {(
              [
                ["Listings", counts.listings],
                ["Conversations", counts.conversations],
                ["Reports made", counts.reportsMade],
                ["Reports received", counts.reportsReceived],
                ["Active sessions", counts.activeSessions],
                ["Strikes", card.strikes.length],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-lg bg-zinc-50 px-3 py-2">
                <dt className="text-zinc-500">{label}</dt>
                <dd className="text-lg font-semibold text-zinc-900">{value}</dd>
              </div>
            ))}
          </dl>
        </Panel>
      </div>

      <TrustPanel trust={trust} canLock={!student.deletedAt} />

      <Panel title="Actions" id="actions-title">
        {/* Decision 0573: a deleted account is a tombstone; the server refuses every action on it. */}
        {student.deletedAt ? (
          <p className="text-sm text-zinc-600">{ADMIN_MESSAGES.accountDeleted}</p>
        ) : (
          <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
            {student.suspended || student.banned ? (
              <ActionForm
                key="lift-suspension"
                intent="lift-suspension"
                title="Lift"
                description="Ends the suspension or ban now; the student is told why."
                fields={["reasonCode", "reason"]}
                submitLabel="Lift"
                askPassword={askPassword}
              />
            ) : (
              <ActionForm
                key="suspend-student"
                intent="suspend-student"
                title="Suspend"
                description="They can read but not post, message or boost; their running ads pause."
                fields={["days", "reasonCode", "reason", "password"]}
                submitLabel="Suspend"
                danger
                askPassword={askPassword}
              />
            )}
            {student.banned ? null : (
              <ActionForm
                intent="ban-student"
                title="Ban"
                description="They cannot sign in, their address cannot sign up again, and every session ends."
                fields={["reasonCode", "reason", "password"]}
                submitLabel="Ban"
                danger
                askPassword={askPassword}
              />
            )}
            <ActionForm
              intent="sign-out-everywhere"
              title="Sign out everywhere"
              description="Ends every session of this account (a lost phone, a shared computer)."
              fields={["reason", "password"]}
              submitLabel="Sign out everywhere"
              danger
              askPassword={askPassword}
            />
            {student.verified ? null : (
              <>
                <ActionForm
                  intent="verify-email"
                  title="Verify e-mail"
                  description="Marks their sign-in address verified, as a right code would."
                  fields={["reason"]}
                  submitLabel="Mark verified"
                  askPassword={askPassword}
                />
                <ActionForm
                  intent="resend-code"
                  title="Resend a code"
                  description="Mails a new sign-up code (at most 3 code mails an hour)."
                  fields={["reason"]}
                  submitLabel="Resend code"
                  askPassword={askPassword}
                />
              </>
            )}
          </div>
        )}
      </Panel>

      <Panel title="Moderation log" id="log-title">
        {card.log.length === 0 ? (
          <p className="text-sm text-zinc-600">Nothing logged about this student.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm">
            {card.log.map((row) => (
              <li key={row.id} className="py-2">
                <p className="font-medium text-zinc-900">
                  {logActionWords(row.action, row.days)}{" "}
                  <span className="font-normal text-zinc-600">by {row.actor}</span>
                </p>
                {row.publicReason ? <p className="break-words text-zinc-700">{row.publicReason}</p> : null}
                {row.privateNote ? (
                  <p className="break-words text-zinc-600">Note: {row.privateNote}</p>
                ) : null}
                <p className="text-xs text-zinc-500">{utc(row.createdAt)}</p>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Panel title="Strikes" id="strikes-title">
          {card.strikes.length === 0 ? (
            <p className="text-sm text-zinc-600">No strikes.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm">
              {card.strikes.map((strike) => (
                <li key={strike.id} className="py-2">
                  <p className="font-medium">
                    {STRIKE_ACTION_LABELS[strike.action]}
                    {strike.overruledAt ? " (overruled)" : ""}
                  </p>
                  <p className="break-words text-zinc-700">{strike.publicReason}</p>
                  <p className="text-xs text-zinc-500">{utc(strike.createdAt)}</p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Listings" id="listings-title">
          {card.listings.length === 0 ? (
            <p className="text-sm text-zinc-600">No listings.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm">
              {card.listings.map((listing) => (
                <li key={listing.id} className="py-2">
                  <p className="truncate">{listing.excerpt || "(photos only)"}</p>
                  <p className="text-xs text-zinc-500">
                    {listing.listingStatus}
                    {listing.moderationState ? ` · ${listing.moderationState}` : ""} ·{" "}
                    {utc(listing.createdAt)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Ads" id="ads-title">
          {card.ads.length === 0 ? (
            <p className="text-sm text-zinc-600">No ads.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm">
              {card.ads.map((ad) => (
                <li key={ad.id} className="flex flex-wrap justify-between gap-2 py-2">
                  <span className="min-w-0 truncate">{ad.title || "Untitled ad"}</span>
                  <span className="text-zinc-600">
                    {ad.status} · {money(ad.amountBudgeted)}
                    {ad.amountRefunded > 0 ? ` (${money(ad.amountRefunded)} refunded)` : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-sm">
            <Link to="/admin/payments" className="font-semibold text-brand-700 hover:underline">
              Refunds are on Payments
            </Link>
          </p>
        </Panel>
        <Panel title="Payments" id="payments-title">
          {card.payments.length === 0 ? (
            <p className="text-sm text-zinc-600">No payments.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm">
              {card.payments.map((payment) => (
                <li key={payment.id} className="flex flex-wrap justify-between gap-2 py-2">
                  <span className="min-w-0 break-words">{payment.description}</span>
                  <span className="text-zinc-600">
                    {payment.kind === "refund" ? money(-payment.amount) : money(payment.amount)}
                    {payment.status === "pending" ? " · pending" : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>

      <Panel title="Active sessions" id="sessions-title">
        {card.sessions.length === 0 ? (
          <p className="text-sm text-zinc-600">Signed out everywhere.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm">
            {card.sessions.map((row) => (
              <li key={`${row.createdAt}`} className="py-2">
                <p className="break-words">{row.userAgent ?? "Unknown browser"}</p>
                <p className="text-xs text-zinc-500">
                  Signed in {utc(row.createdAt)} · last seen {utc(row.updatedAt)}
                  {row.ipAddress ? ` · ${row.ipAddress}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </article>
  );
}
