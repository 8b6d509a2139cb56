// Decision 0621: matching new listings against a campus's saved searches. One campus with 5,000
// listings (the term dictionary the rare words come from), 2,500 students with 20 saved searches
// each (50,000: an item drawn Zipf-like — the top one about 2 % of searches — or, one in four, a
// brand or model, one in twenty misspelt, then up to two narrowing words; 40% with filters; 70% instant, 25% daily, 5%
// off), then 300 new listings written as listings are (items, a few describing words, maybe a
// brand, and filler no one searches for). Each listing is timed twice: the two steps alone
// (candidates and /search's check, batch after batch, reading only: "finding the matches"), then
// the job's own batches to the end (the same steps, then the hits and grouped notices written).
// Reports p50/p95 per listing, candidates and hits. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_saved_searches
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_saved_searches npx tsx bench/saved-search-matching.ts
//   DATA_DIR=/tmp/cbs-bench-saved-searches npx tsx bench/saved-search-matching.ts        # PGlite
//
// Knobs: BENCH_SEARCHES (50000), BENCH_LISTINGS (300). The report carries the 1-minute load average.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { posts, savedSearches } from "~/server/db/schema";
import { createLogger } from "~/server/logger";
import { typoKeys } from "~/server/search/saved-search-listing-words";
import { findMatches, matchListingBatch, SEARCHES_PER_BATCH } from "~/server/search/saved-search-matching";
import { enqueueSavedSearchMatch } from "~/server/search/saved-search-matching-queue";
import { canonicalSearch } from "~/server/search/saved-searches";
import { rowsOf } from "~/server/search/terms";
import { benchTarget } from "./database";

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 50_000);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 300);
const BACKGROUND = 5_000;
const PER_STUDENT = 20;
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

// A fixed pseudo-random sequence, so every run builds the same data.
let seed = 20261128;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** What students look for: the head of the list far more often than the tail. */
const ITEMS = `desk lamp chair table sofa couch bed frame mattress dresser shelf bookcase mirror rug
curtains fridge microwave kettle toaster blender coffee pan pot knife plates mugs laptop monitor
keyboard mouse printer tablet phone charger cable headphones speaker camera tripod lens bike
bicycle helmet lock scooter skateboard snowboard skis tent backpack jacket coat boots shoes sneakers
hoodie jeans dress textbook calculus chemistry biology physics economics notes calculator guitar
piano ukulele violin amp drum tickets concert console controller tv projector fan heater vacuum
iron hanger bin drawer cart stool ottoman futon pillow blanket sheets towel plant vase poster`
  .split(/\s+/)
  .filter(Boolean);
/** Words that narrow a search, and describe a listing. */
const QUALIFIERS = `ikea wooden metal white black blue red green small large new used vintage cheap electric
portable wireless bluetooth mini standing gaming queen twin`
  .split(/\s+/)
  .filter(Boolean);
/** Words listings are full of and saved searches hardly ever hold. */
const FILLER = `great condition pick up near campus works perfectly moving out must go barely used clean
smoke free pet home open offers price includes original box north dorm library available this
week weekend evenings message me thanks only months old like brand still`
  .split(/\s+/)
  .filter(Boolean);
/**
 * Brands, models and course codes: each rare, together a good part of what is searched. Random
 * letters (5 to 8) and a digit, so two of them are seldom within two typos of each other, as
 * real names are (names built from a few syllables would be, and /search would rightly match
 * them to each other).
 */
const RARE = Array.from({ length: 1_700 }, () => {
  const letters = Array.from({ length: 5 + Math.floor(random() * 4) }, () =>
    String.fromCharCode(97 + Math.floor(random() * 26)),
  );
  return `${letters.join("")}${Math.floor(random() * 10)}`;
});
/**
 * An item, Zipf-like but flatter than a power of 3: the top item is about 2 % of what is asked
 * (`desk` among 50,000 searches: ≈ 1,000), the last ones a few dozen.
 */
const item = () => ITEMS[Math.floor(ITEMS.length * random() ** 1.25)] as string;
const CATEGORIES = ["furniture", "household", "school supplies", "musical instruments", "kitchen & dining"];
const CONDITIONS = ["new", "like_new", "good", "fair"];

/** A saved search: an item (or, one time in four, a brand or model), then up to two narrowing words. */
function searchWords(): string[] {
  let first = random() < 0.75 ? item() : pick(RARE);
  // One in twenty misspelt: two neighbouring letters swapped.
  if (random() < 0.05 && first.length >= 4) {
    const at = 1 + Math.floor(random() * (first.length - 2));
    first = `${first.slice(0, at)}${first[at + 1]}${first[at]}${first.slice(at + 2)}`;
  }
  const more = random();
  const extra = more < 0.5 ? 0 : more < 0.85 ? 1 : 2;
  return [
    ...new Set([first, ...Array.from({ length: extra }, () => (random() < 0.6 ? pick(QUALIFIERS) : item()))]),
  ];
}

/** A listing: one or two items, a couple of describing words, maybe a brand, and filler. */
function listingText(): string {
  const words = [
    ...Array.from({ length: 1 + Math.floor(random() * 2) }, item),
    ...Array.from({ length: Math.floor(random() * 3) }, () => pick(QUALIFIERS)),
    ...(random() < 0.5 ? [pick(RARE)] : []),
    ...Array.from({ length: 4 + Math.floor(random() * 8) }, () => pick(FILLER)),
  ];
  return words.join(" ");
}

const target = benchTarget();
if (target.kind === "pglite") mkdirSync(target.dataDir, { recursive: true });
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
  const students = Math.ceil(SEARCHES / PER_STUDENT);
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified,
      profile_set_up, bio, img)
    select 'ss-' || ${run} || '-' || g, 'S S.', 'ss-' || ${run} || '-' || g || '@bench.example.edu', 'S', 'S.',
      'ssbench' || ${run} || g, 'ou', true, true, true, 'Bench', '/x.webp'
    from generate_series(0, ${students}) g`);
  const seller = `ss-${run}-${students}`;
  let started = performance.now();
  for (let chunk = 0; chunk < BACKGROUND; chunk += 500) {
    await db.insert(posts).values(
      Array.from({ length: 500 }, () => ({
        campusId: "ou",
        authorId: `ss-${run}-${Math.floor(random() * students)}`,
        textPlain: listingText(),
        category: pick(CATEGORIES),
        priceCents: random() < 0.9 ? Math.floor(random() * 200) * 100 : null,
      })),
    );
  }
  console.log(`background listings: ${BACKGROUND} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const counts = new Map(
    rowsOf<{ term: string; doc_count: number }>(
      await db.execute(sql`select term, doc_count from search_terms where campus_id = 'ou'`),
    ).map((row) => [row.term, row.doc_count]),
  );
  started = performance.now();
  const rows: (typeof savedSearches.$inferInsert)[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const words = searchWords();
    const params = new URLSearchParams({ q: words.join(" ") });
    if (random() < 0.4) {
      const filter = random();
      if (filter < 0.4) params.set("category", pick(CATEGORIES));
      else if (filter < 0.8) params.set("max_price", String(10 + Math.floor(random() * 150)));
      else params.set("condition", pick(CONDITIONS));
      if (random() < 0.3) params.set("min_price", String(Math.floor(random() * 10)));
    }
    const search = canonicalSearch(params.toString());
    const rare = [...words].sort(
      (a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || b.length - a.length,
    )[0];
    const cadence = random();
    rows.push({
      campusId: "ou",
      userId: `ss-${run}-${Math.floor(i / PER_STUDENT)}`,
      name: search.q,
      query: search.query,
      queryKey: `${search.queryKey}#${i}`,
      rareWord: rare ?? null,
      typoKeys: typoKeys(rare ?? null),
      category: search.filters.category,
      minPriceCents: search.filters.minPriceCents,
      maxPriceCents: search.filters.maxPriceCents,
      cadence: cadence < 0.7 ? "instant" : cadence < 0.95 ? "daily" : "off",
      unsubscribeTokenHash: randomUUID(),
    });
  }
  for (let chunk = 0; chunk < rows.length; chunk += 1000) {
    await db.insert(savedSearches).values(rows.slice(chunk, chunk + 1000));
  }
  await db.execute(sql`analyze`);
  console.log(`saved searches: ${SEARCHES} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const samples: number[] = [];
  const findSamples: number[] = [];
  let batches = 0;
  let hits = 0;
  let candidates = 0;
  for (let i = 0; i < LISTINGS; i++) {
    const id = randomUUID();
    const listing = {
      id,
      campusId: "ou",
      authorId: seller,
      textPlain: listingText(),
      category: pick(CATEGORIES),
      priceCents: random() < 0.9 ? Math.floor(random() * 200) * 100 : null,
    };
    await db.transaction(async (tx) => {
      await tx.insert(posts).values(listing);
      await enqueueSavedSearchMatch(tx, ctx, { id, campusId: "ou" });
    });
    // The two steps alone (reading only), batch after batch as the job walks them.
    let begin = performance.now();
    await db.transaction(async (tx) => {
      let afterId: string | null = null;
      for (;;) {
        const found = await findMatches(ctx, tx, listing, afterId, SEARCHES_PER_BATCH);
        candidates += found.candidates.length;
        const last = found.candidates.at(-1);
        if (found.candidates.length < SEARCHES_PER_BATCH || !last) break;
        afterId = last.id;
      }
    });
    findSamples.push(performance.now() - begin);
    // The job's own batches: the same steps, then the hits and the instant notices written.
    begin = performance.now();
    for (;;) {
      batches++;
      if (await matchListingBatch(ctx, id)) break;
    }
    samples.push(performance.now() - begin);
    const [counted] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from saved_search_hits where post_id = ${id}::uuid`),
    );
    hits += Number(counted?.n ?? 0);
  }
  findSamples.sort((a, b) => a - b);
  samples.sort((a, b) => a - b);
  console.log(
    [
      `${target.label}: ${SEARCHES} saved searches, ${LISTINGS} new listings`,
      `finding the matches per listing: p50 ${percentile(findSamples, 50).toFixed(1)} ms, p95 ${percentile(findSamples, 95).toFixed(1)} ms, max ${(findSamples.at(-1) ?? 0).toFixed(1)} ms`,
      `the job's batches per listing (find + hits + notices): p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms, max ${(samples.at(-1) ?? 0).toFixed(1)} ms`,
      `batches ${batches}, candidates ${(candidates / LISTINGS).toFixed(1)} a listing, hits ${hits} (${(hits / LISTINGS).toFixed(1)} a listing)`,
      `load ${load()} (1-minute average), ${new Date().toISOString().slice(0, 10)}`,
    ].join("\n"),
  );
} finally {
  await database.close();
}
