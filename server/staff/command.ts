import type { Queryable } from "../db/client";
import { StaffError } from "./errors.shared";
import { writeHideThreshold } from "./hide-threshold";
import {
  findAccountByEmail,
  grantRole,
  listStaffRoles,
  type RoleGrant,
  requireModeratedCampus,
  revokeRole,
  type StaffContext,
} from "./roles";

/** Decision 0522: how `npm run staff` is used, printed for a command it does not know. */
export const STAFF_COMMAND_USAGE = [
  "Usage: npm run staff -- <command>",
  "  grant admin EMAIL                 make the account with EMAIL a site admin",
  "  grant moderator EMAIL CAMPUS_ID   make it a moderator of the campus (ou, ut, …)",
  "  revoke admin EMAIL",
  "  revoke moderator EMAIL CAMPUS_ID",
  "  list                              every site admin and campus moderator",
  "  hide-threshold CAMPUS_ID WEIGHT   the reports' weight that hides a post before review (1 to 50; default 3)",
].join("\n");

/** A command line the staff command cannot run: its usage is printed and it exits with 2. */
export class StaffUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n\n${STAFF_COMMAND_USAGE}`);
    this.name = "StaffUsageError";
  }
}

const SOURCE_NAMES = {
  config: "ADMIN_EMAILS",
  command: "npm run staff",
  staff: "appointed on /admin/moderators",
  seed: "demo seed",
  system: "automatic",
} as const;

/**
 * Decision 0522: `npm run staff -- …` on an open database. Returns what to print. An unknown
 * e-mail or campus is a StaffError and changes nothing; granting a role already held, or revoking
 * one not held, changes nothing either and says so. Changes are logged with the source `command`
 * and no actor. `adminEmails` is ADMIN_EMAILS, to warn that a start would grant a revoked admin again.
 */
export async function runStaffCommand(
  ctx: StaffContext,
  args: readonly string[],
  adminEmails: readonly string[] = [],
): Promise<string> {
  const [verb, kind, email, campusArg, ...rest] = args;
  if (verb === "list" && args.length === 1) return listing(ctx);
  if (verb === "hide-threshold" && args.length === 3)
    return setHideThreshold(ctx, args[1] ?? "", args[2] ?? "");
  if ((verb !== "grant" && verb !== "revoke") || rest.length > 0) {
    throw new StaffUsageError(args.length === 0 ? "No command given." : `Unknown command: ${args.join(" ")}`);
  }
  if (!email || (kind === "admin" && campusArg !== undefined)) {
    throw new StaffUsageError(`Unknown command: ${args.join(" ")}`);
  }
  if (kind !== "admin" && !(kind === "moderator" && campusArg)) {
    throw new StaffUsageError(`Unknown command: ${args.join(" ")}`);
  }
  return ctx.db.transaction(async (tx) => {
    const address = email.trim().toLowerCase();
    const account = await findAccountByEmail(tx, address);
    if (!account) throw new StaffError("unknown-email", `No account uses the e-mail address ${address}.`);
    if (!account.verified && verb === "grant") {
      throw new StaffError(
        "unverified-email",
        `The account of ${address} has not verified its e-mail address yet.`,
      );
    }
    const name = `${account.firstName} ${account.lastName} <${address}>`;
    let grant: RoleGrant = { role: "site_admin", campusId: null };
    let what = "a site admin";
    if (kind === "moderator" && campusArg) {
      const campus = await moderatedCampus(tx, campusArg);
      grant = { role: "campus_moderator", campusId: campus.id };
      what = `a moderator of ${campus.name} (${campus.id})`;
    }
    const at = ctx.clock.now();
    if (verb === "grant") {
      const changed = await grantRole(tx, at, account.id, grant, { source: "command" });
      return changed ? `${name} is now ${what}.` : `${name} is already ${what}; nothing changed.`;
    }
    const changed = await revokeRole(tx, at, account.id, grant, { source: "command" });
    if (!changed) return `${name} is not ${what}; nothing changed.`;
    const relisted =
      grant.role === "site_admin" && adminEmails.includes(address)
        ? " The address is still in ADMIN_EMAILS: the next start makes it a site admin again."
        : "";
    return `${name} is no longer ${what}.${relisted}`;
  });
}

/**
 * Decision 0542: a campus's threshold of report weight that hides a post or comment before review
 * (campuses.report_hide_threshold; the floor of 2 distinct reporters stays whatever it is). Logged
 * on the campus's log as the command's, private to staff like role changes.
 */
async function setHideThreshold(ctx: StaffContext, campusArg: string, weightArg: string): Promise<string> {
  const weight = Number(weightArg);
  if (!/^\d+(\.\d+)?$/.test(weightArg) || weight < 1 || weight > 50) {
    throw new StaffUsageError(`The weight must be a number from 1 to 50, got '${weightArg}'.`);
  }
  return ctx.db.transaction(async (tx) => {
    const campus = await moderatedCampus(tx, campusArg);
    await writeHideThreshold(tx, ctx.clock.now(), campus.id, weight, {
      source: "command",
      actorId: null,
      actorRole: null,
    });
    return `Reports weighing ${weight} (from 2 students or more) now hide a post on ${campus.name} (${campus.id}) until moderators review it.`;
  });
}

/** The campus, or an error that names the id given and the ones there are. */
async function moderatedCampus(tx: Queryable, id: string) {
  try {
    return await requireModeratedCampus(tx, id);
  } catch (error) {
    if (!(error instanceof StaffError)) throw error;
    throw new StaffError(
      "unknown-campus",
      `There is no campus '${id}'. Campus ids are the sites' names: ou, ut, …`,
    );
  }
}

async function listing(ctx: StaffContext): Promise<string> {
  const roles = await listStaffRoles(ctx.db);
  if (roles.length === 0) return "No site admins or campus moderators.";
  return roles
    .map((row) => {
      const role = row.role === "site_admin" ? "site admin" : `moderator of ${row.campusId}`;
      return `${role.padEnd(17)} ${row.email} (${row.firstName} ${row.lastName}; ${SOURCE_NAMES[row.source]}, ${row.grantedAt.toISOString().slice(0, 10)})`;
    })
    .join("\n");
}
