// Decision 0606 (decision 0603's accept under contention): one listing with 50 buyers' pending
// offers, 10 accepts at the same instant by the seller, on PostgreSQL, through acceptOffer itself
// (the listing's lock, the deal, closing the other 49 offers with their chat lines and notices).
// Each round checks that exactly one deal is active. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_trade
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_trade npx tsx bench/offer-accept.ts
//
// Knobs: BENCH_ROUNDS (20). The report carries the 1-minute load average.
import os from "node:os";
import { and, eq, sql } from "drizzle-orm";
import { getViewerById } from "~/server/accounts/viewer";
import { seedCampuses } from "~/server/campuses/campuses";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { deals, posts } from "~/server/db/schema";
import { createLogger } from "~/server/logger";
import { acceptOffer } from "~/server/trade/offer-accept";
import { makeOffer } from "~/server/trade/offers";
import { benchTarget } from "./database";

const BUYERS = 50;
const ACCEPTS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const target = benchTarget();
if (target.kind !== "postgres") throw new Error("Decision 0606 measures PostgreSQL: set DATABASE_URL.");
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const run = Date.now().toString(36);
  const ctx = {
    config: loadConfig({ ...process.env, NOTIFICATION_EMAIL_DELAY: "120" }),
    db,
    clock: { now: () => new Date() },
    log: createLogger("silent"),
  } as unknown as AppContext;
  // The seller and the buyers: verified members of OU, as rows.
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified,
      profile_set_up, bio, img)
    select 'tr-' || ${run} || '-' || g, 'T R.', 'tr-' || ${run} || '-' || g || '@bench.example.edu', 'T', 'R.',
      'trbench' || ${run} || g, 'ou', true, true, true, 'Bench', '/x.webp'
    from generate_series(0, ${BUYERS}) g`);
  const viewer = async (index: number) => {
    const found = await getViewerById(ctx, `tr-${run}-${index}`);
    if (!found) throw new Error("bench: a member is missing");
    return found;
  };
  const seller = await viewer(0);
  const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, index) => viewer(index + 1)));
  const samples: number[] = [];
  let won = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const [listing] = await db
      .insert(posts)
      .values({
        campusId: "ou",
        authorId: seller.id,
        textPlain: `Bench listing ${round}`,
        priceCents: 5000,
        priceTerms: "offers",
      })
      .returning({ id: posts.id });
    if (!listing) throw new Error("bench: no listing");
    const offers = [];
    for (const [index, buyer] of buyers.entries()) {
      offers.push(await makeOffer(ctx, buyer, { postId: listing.id, amountCents: 2000 + index }));
    }
    const chosen = offers.slice(0, ACCEPTS).map((offer, index) => ({ ...offer, amountCents: 2000 + index }));
    const results = await Promise.allSettled(
      chosen.map(async (offer) => {
        const started = performance.now();
        try {
          return await acceptOffer(ctx, seller, offer.offerId, {
            amountCents: offer.amountCents,
            version: 1,
          });
        } finally {
          samples.push(performance.now() - started);
        }
      }),
    );
    const fulfilled = results.filter((result) => result.status === "fulfilled").length;
    const active = await db
      .select({ id: deals.id })
      .from(deals)
      .where(and(eq(deals.postId, listing.id), eq(deals.state, "active")));
    if (fulfilled !== 1 || active.length !== 1) {
      throw new Error(`round ${round}: ${fulfilled} accepts won and ${active.length} deals are active`);
    }
    won += fulfilled;
  }
  samples.sort((a, b) => a - b);
  console.log(`| accepts | deals | p50 ms | p95 ms | max ms | load |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| ${samples.length} (${ROUNDS} rounds of ${ACCEPTS} at once, ${BUYERS} offers each) | ${won} (one per round) | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 95).toFixed(1)} | ${(samples.at(-1) ?? Number.NaN).toFixed(1)} | ${load()} |`,
  );
} finally {
  await database.close();
}
