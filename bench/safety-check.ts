// Decision 0651: what the safety rules cost. (1) The check itself on 10,000-character texts —
// ordinary prose, a scam, and inputs made to be slow (one long word, single letters, digits) —
// p50/p95 of the matcher with the built-in rules compiled, as a write reads them; the goal is
// under 5 ms. (2) On PostgreSQL, the added cost to sendMessage and createPost: the same calls
// with the rules disabled and enabled, in alternating rounds so the machine's load falls on
// both; the goal is ≤ 1 ms added at p95. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_safety
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_safety npx tsx bench/safety-check.ts
//
// Knobs: BENCH_ROUNDS (10 rounds of 40 calls each way). The report carries the load average.
import os from "node:os";
import { sql } from "drizzle-orm";
import { getViewerById } from "~/server/accounts/viewer";
import { seedCampuses } from "~/server/campuses/campuses";
import { startConversation } from "~/server/chats/conversations";
import { sendMessage } from "~/server/chats/messages";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { createPost } from "~/server/posts/posts";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import {
  compilePattern,
  matches,
  readText,
  safetyPatternSchema,
  termPrefixes,
} from "~/server/safety/matcher";
import { BUILTIN_RULES, syncBuiltinSafetyRules } from "~/server/safety/rules";
import { benchTarget } from "./database";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = 40;
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

// (1) The check alone.
const compiled = BUILTIN_RULES.map((rule) => compilePattern(safetyPatternSchema.parse(rule.pattern)));
const prefixes = termPrefixes(compiled);
const writer = { accountAgeHours: 1, ownDomains: ["campusbuysell.com"] };
const fill = (unit: string) => unit.repeat(Math.ceil(10_000 / unit.length)).slice(0, 10_000);
const texts: Record<string, string> = {
  prose: fill("Is the desk still available? I can meet at Dale Hall at 3:30, $40 cash or venmo at pickup. "),
  scam: fill("pls z e l l e me $20 first to hold it, or a steam gift card, call 405 555 0123 or bit.ly/x "),
  "one word": "a".repeat(10_000),
  "single letters": fill("z e l l "),
  digits: fill("1 2 3 4 5 6 7 8 9 0 "),
  dots: fill("a.b.c.d."),
};
console.log(`safety check on 10,000 characters (${BUILTIN_RULES.length} built-in rules), load ${load()}`);
for (const [name, text] of Object.entries(texts)) {
  const samples: number[] = [];
  for (let index = 0; index < 300; index++) {
    const start = performance.now();
    const read = readText(text, prefixes);
    for (const pattern of compiled) matches(read, pattern, writer);
    samples.push(performance.now() - start);
  }
  const { p50, p95 } = summary(samples.slice(50));
  console.log(`  ${name.padEnd(15)} p50 ${ms(p50)}  p95 ${ms(p95)}`);
}

// (2) The writes on PostgreSQL.
const target = benchTarget();
if (target.kind !== "postgres") {
  console.log("(set DATABASE_URL to a PostgreSQL database for the added cost to sendMessage and createPost)");
  process.exit(0);
}
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  await syncBuiltinSafetyRules(db, new Date());
  const run = Date.now().toString(36);
  const config = loadConfig({ ...process.env, NOTIFICATION_EMAIL_DELAY: "120" });
  const ctx = {
    config: { ...config, postLimits: { perMinute: 0, perDay: 0 } },
    db,
    clock: { now: () => new Date() },
    log: { info() {}, warn() {}, error() {}, debug() {} },
    wakeMailWorker() {},
  } as unknown as AppContext;
  const people = 2 * ROUNDS * 2 + 2;
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified,
      profile_set_up, bio, img, created_at)
    select 'sf-' || ${run} || '-' || g, 'S F.', 'sf-' || ${run} || '-' || g || '@bench.example.edu', 'S', 'F.',
      'sfbench' || ${run} || g, 'ou', true, true, true, 'Bench', '/x.webp', now() - interval '30 days'
    from generate_series(0, ${people}) g`);
  const viewer = async (index: number) => {
    const found = await getViewerById(ctx, `sf-${run}-${index}`);
    if (!found) throw new Error("bench: a member is missing");
    return found;
  };
  const recipient = await viewer(0);
  const samples = {
    send: { off: [] as number[], on: [] as number[] },
    post: { off: [] as number[], on: [] as number[] },
  };
  const message =
    "Hi! Is the desk still available? I can meet at Dale Hall at 3:30, cash or venmo at pickup.";
  const listing = JSON.stringify(
    plainTextToRichText("Desk, solid oak, $40. Pick up near Dale Hall, cash or Venmo at the meetup."),
  );
  let next = 1;
  for (let round = 0; round < ROUNDS; round++) {
    for (const state of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
      await db.execute(sql`update safety_rules set enabled = ${state === "on"}`);
      // A sender per round and state: the per-minute sending limit is 30.
      const sender = await viewer(next++);
      const { chatId } = await startConversation(ctx, sender, { recipientId: recipient.id, text: "hello" });
      for (let index = 0; index < PER_ROUND; index++) {
        if (index > 0 && index % 25 === 0) {
          // Past the per-minute limit: a new sender of the same state.
          break;
        }
        const start = performance.now();
        await sendMessage(ctx, sender, chatId, { text: message });
        samples.send[state].push(performance.now() - start);
      }
      const author = await viewer(next++);
      for (let index = 0; index < PER_ROUND; index++) {
        const start = performance.now();
        await createPost(ctx, author, {
          campusId: "ou",
          text: listing,
          category: null,
          files: [],
          listing: null,
        });
        samples.post[state].push(performance.now() - start);
      }
    }
  }
  await db.execute(sql`update safety_rules set enabled = true`);
  console.log(`\nadded cost on PostgreSQL (${ROUNDS} alternating rounds), load ${load()}`);
  for (const [name, pair] of Object.entries(samples)) {
    const off = summary(pair.off.slice(5));
    const on = summary(pair.on.slice(5));
    console.log(
      `  ${name === "send" ? "sendMessage" : "createPost "} rules off p50 ${ms(off.p50)} p95 ${ms(off.p95)} | on p50 ${ms(on.p50)} p95 ${ms(on.p95)} | added p95 ${ms(on.p95 - off.p95)}`,
    );
  }
} finally {
  await database.close();
}
