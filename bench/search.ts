// The search benchmark (decision 0190): 100,000 top-level posts over the 14
// communities with a long-tailed vocabulary, 10,000 users, then a query mix through the domain
// functions themselves (the SQL of a search: the dictionary lookup and the posts query), with
// percentiles, EXPLAIN of each query shape and the typo quality figure. Not a test.
//
//   createdb -h 127.0.0.1 -U postgres bench_search
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_search npx tsx bench/search.ts
//   DATA_DIR=/tmp/cbs-bench-search npx tsx bench/search.ts          (PGlite)
//
// The database must be new. BENCH_SEARCH_QUERIES (default 200 per kind) sets the mix's size.
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { seedCampuses } from "~/server/campuses/campuses";
import { CampusDirectory } from "~/server/campuses/directory";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { type DatabaseHandle, openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { createLogger } from "~/server/logger";
import { createLogTransport } from "~/server/mail/transport";
import { createMemoryStorage } from "~/server/media/storage";
import { CATEGORIES } from "~/server/posts/categories.shared";
import { DEFAULT_SEARCH_FILTERS } from "~/server/search/filters.shared";
import { searchPeople } from "~/server/search/people";
import { choosePostSearchPlan, postSearchQuery, searchPosts } from "~/server/search/posts";
import { getSearchSuggestions } from "~/server/search/suggestions";
import { expandWords, rebuildSearchTerms, rowsOf, termLookupQuery, toTsQuery } from "~/server/search/terms";
import { searchWords } from "~/server/search/text.shared";
import { createPayments } from "../server/payments/select";
import { createRealtimeHub } from "../server/realtime/hub";
import { benchTarget, BENCH_FIRST_NAMES as FIRST_NAMES, withoutSearchTermsTrigger } from "./database";

const USERS = 10_000;
const POSTS = 100_000;
const PER_KIND = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);

/** A seeded generator, so two runs make the same data and the same queries. */
function rng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = rng(12);

const BASE_WORDS =
  `fridge mini microwave desk lamp chair table couch sofa bed frame mattress dresser shelf bookshelf
textbook calculus chemistry biology physics economics psychology statistics notebook calculator laptop
charger monitor keyboard mouse headphones speaker speakers bluetooth iphone samsung android tablet ipad
camera lens tripod drone bike bicycle helmet scooter skateboard longboard tickets football basketball game
concert season parking pass sublease apartment room roommate housing lease furniture kitchen pans pots
plates blender toaster coffee maker kettle vacuum fan heater air conditioner rug curtains mirror poster
jacket coat hoodie sweater jeans shoes sneakers boots dress shirt backpack bag watch necklace earrings
guitar piano ukulele amplifier drums violin playstation xbox nintendo switch controller console games
tv television projector router printer paper pens markers graphing scientific engineering drafting
barely used brand new great condition works perfectly pick up near library dorm campus moving out sale
cheap negotiable firm price obo free must go today weekend tonight tomorrow semester fall spring summer
white black blue red green grey silver wooden metal plastic leather large small medium queen twin full`
    .split(/\s+/)
    .filter(Boolean);

const SYLLABLES =
  "ka ri to mi na so lu ve de pra stel gor bin tra quo fen dal rix mon pel tur vak zen cor lim sha".split(
    " ",
  );

/** Brand names, model names, places: the long tail a real campus's posts have. */
function pseudoWord(): string {
  const parts = 2 + Math.floor(random() * 3);
  let word = "";
  for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return word;
}

function vocabulary(): string[] {
  const words = new Set(BASE_WORDS);
  while (words.size < 30_000) words.add(pseudoWord());
  return [...words];
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`  ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function generate(database: DatabaseHandle, campusIds: string[], words: string[]) {
  const { db } = database;
  await step("users", () =>
    db.execute(sql`
      insert into "user" (id, name, email, verified, first_name, last_name, username, campus_id, school_verified)
      select 'bs-' || g, fn || ' ' || ln, 'bs' || g || '@bench.example.edu', true, fn, left(ln, 1) || '.',
        lower(fn) || 'x' || g, (string_to_array(${campusIds.join(" ")}, ' '))[1 + g % ${campusIds.length}], true
      from generate_series(0, ${USERS - 1}) g,
        lateral (select (string_to_array(${FIRST_NAMES.join(" ")}, ' '))[1 + (g * 7) % ${FIRST_NAMES.length}] as fn,
                        (string_to_array(${FIRST_NAMES.join(" ")}, ' '))[1 + (g * 13) % ${FIRST_NAMES.length}] as ln) n`),
  );
  // The vocabulary as a table (a regular one: the pool's connections do not share temporary tables).
  await db.execute(sql`drop table if exists bench_vocab`);
  await db.execute(
    sql`create table bench_vocab as select ordinality::int as i, w from unnest(string_to_array(${words.join(" ")}, ' ')) with ordinality as v(w)`,
  );
  await db.execute(sql`alter table bench_vocab add primary key (i)`);
  // Bulk load without the trigger, then one rebuild: also measures rebuildSearchTerms.
  const categories = CATEGORIES.map((c) => c.value);
  await withoutSearchTermsTrigger(db, async () => {
    for (let start = 0; start < POSTS; start += 10_000) {
      await step(`posts ${start}…${start + 9_999}`, () =>
        db.execute(sql`
        insert into posts (campus_id, author_id, text_plain, category, img_count, created_at, last_modified)
        select u.campus_id, u.id, t.text,
          case when random() < 0.7 then (string_to_array(${categories.join("|")}, '|'))[1 + floor(random() * ${categories.length}::int)::int] end,
          case when random() < 0.35 then 1 + floor(random() * 3)::int else 0 end,
          now() - (g || ' minutes')::interval * 5, now() - (g || ' minutes')::interval * 5
        from generate_series(${start}::int, ${start + 9_999}::int) g
        join "user" u on u.id = 'bs-' || (g % ${USERS}::int)
        cross join lateral (
          select string_agg(v.w, ' ') as text
          from (
            select 1 + floor(power(random(), 3) * ${words.length}::int)::int + 0 * k + 0 * g as i
            from generate_series(1, 8 + (g % 17)) k
          ) r
          join bench_vocab v on v.i = r.i
        ) t`),
      );
    }
  });
  await db.execute(sql`drop table bench_vocab`);
  const terms = await step("rebuildSearchTerms (every campus)", () => rebuildSearchTerms(db));
  console.log(`  dictionary: ${terms} terms`);
  // What autovacuum does on a live database: the visibility map, and the GIN indexes' pending
  // lists merged (a GIN index read with a long pending list scans it whole on every query).
  await step("vacuum analyze", () => db.execute(sql`vacuum analyze`));
}

/** One random typo: a letter changed, added, removed, or two neighbours swapped. */
function typo(word: string): string {
  const chars = [...word];
  const at = Math.floor(random() * chars.length);
  const letter = "abcdefghijklmnopqrstuvwxyz"[Math.floor(random() * 26)] ?? "e";
  const kind = Math.floor(random() * 4);
  if (kind === 0) chars[at] = letter === chars[at] ? (letter === "a" ? "b" : "a") : letter;
  else if (kind === 1) chars.splice(at, 0, letter);
  else if (kind === 2 && chars.length > 1) chars.splice(at, 1);
  else if (at < chars.length - 1) [chars[at], chars[at + 1]] = [chars[at + 1] ?? "", chars[at] ?? ""];
  else chars[at] = letter === chars[at] ? "z" : letter;
  const out = chars.join("");
  return out === word ? typo(word) : out;
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

interface Sample {
  id: string;
  campusId: string;
  words: string[];
  category: string | null;
}

/**
 * A context for the domain functions, on the bench's database (migrated, campuses seeded,
 * every campus public). bench/search-http.ts uses it too, before the app starts.
 */
export async function searchBenchContext(database: DatabaseHandle, dataDir: string): Promise<AppContext> {
  const config = loadConfig({ ...process.env, PUBLIC_CAMPUSES: "all", DATA_DIR: dataDir });
  const log = createLogger("warn");
  await migrateDatabase(database);
  await seedCampuses(database.db, config.publicCampuses);
  const campuses = new CampusDirectory(database.db, config.campusHosts);
  await campuses.refresh();
  return {
    config,
    db: database.db,
    database,
    mail: createLogTransport(log),
    storage: createMemoryStorage(),
    clock: { now: () => new Date() },
    log,
    campuses,
    // Searches publish nothing; the hub opens no connection until a stream subscribes.
    realtime: createRealtimeHub({
      database,
      log,
      maxStreams: config.realtime.maxStreams,
      maxStreamsPerUser: config.realtime.maxStreamsPerUser,
    }),
    payments: createPayments(config, database.db),
    wakeMailWorker: () => {},
  };
}

async function main() {
  const target = benchTarget();
  console.log(`Search benchmark on ${target.label}`);
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  const ctx = await searchBenchContext(database, target.dataDir);
  const campusRows = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from campuses where not generic order by id`),
  );
  const campusIds = campusRows.map((r) => r.id);
  const [{ n: existing } = { n: 0 }] = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from posts`),
  );
  if (existing === 0) {
    console.log("Generating");
    await generate(database, campusIds, vocabulary());
  } else console.log(`Using the ${existing} posts already there`);

  const samples = rowsOf<{ id: string; campus_id: string; text_plain: string; category: string | null }>(
    await database.db.execute(
      sql`select id, campus_id, text_plain, category from posts tablesample bernoulli (2) repeatable (7) where parent_id is null limit ${PER_KIND * 3}`,
    ),
  ).map(
    (r): Sample => ({
      id: r.id,
      campusId: r.campus_id,
      words: searchWords(r.text_plain),
      category: r.category,
    }),
  );
  const counts = new Map(
    rowsOf<{ campus_id: string; term: string; doc_count: number }>(
      await database.db.execute(sql`select campus_id, term, doc_count from search_terms`),
    ).map((r) => [`${r.campus_id}:${r.term}`, r.doc_count]),
  );
  const countOf = (s: Sample, w: string) => counts.get(`${s.campusId}:${w}`) ?? 0;
  const byRarity = (s: Sample) => [...new Set(s.words)].sort((a, b) => countOf(s, a) - countOf(s, b));
  const common = rowsOf<{ term: string }>(
    await database.db.execute(
      sql`select term from search_terms where campus_id = 'ou' order by doc_count desc limit 20`,
    ),
  ).map((r) => r.term);

  type Kind = {
    name: string;
    q: string;
    campusId: string;
    category?: string | null;
    expect?: string;
    show?: "latest" | "media";
  };
  const mix: Kind[] = [];
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  for (const s of samples.slice(0, PER_KIND)) {
    const rare = byRarity(s);
    mix.push({ name: "rare word", q: rare[0] ?? "", campusId: s.campusId });
    mix.push({ name: "common word", q: pick(common), campusId: s.campusId });
    mix.push({ name: "two words (rare + common)", q: `${rare[0]} ${pick(common)}`, campusId: s.campusId });
    mix.push({ name: "two-letter prefix", q: (pick(s.words) ?? "de").slice(0, 2), campusId: s.campusId });
    mix.push({ name: "common word, media tab", q: pick(common), campusId: s.campusId, show: "media" });
    if (s.category)
      mix.push({
        name: "common word + category filter",
        q: pick(common),
        campusId: s.campusId,
        category: s.category,
      });
  }
  let typo1 = 0;
  let typo2 = 0;
  for (const s of samples) {
    const rare = byRarity(s);
    const long4 = rare.filter((w) => w.length >= 4);
    const long8 = rare.filter((w) => w.length >= 8);
    if (typo1 < PER_KIND && long4.length >= 2) {
      const [word, other] = [long4[0] ?? "", long4[1] ?? ""];
      mix.push({
        name: "one typo (≥ 4 letters) + a second word",
        q: `${typo(word)} ${other}`,
        campusId: s.campusId,
        expect: s.id,
      });
      typo1++;
    }
    const otherThan8 = rare.find((w) => w !== long8[0] && w.length >= 4);
    if (typo2 < PER_KIND && long8.length >= 1 && otherThan8) {
      const word = long8[0] ?? "";
      let twice = typo(typo(word));
      if (twice === word) twice = typo(word);
      mix.push({
        name: "two typos (≥ 8 letters) + a second word",
        q: `${twice} ${otherThan8}`,
        campusId: s.campusId,
        expect: s.id,
      });
      typo2++;
    }
  }
  // Shuffled, so no kind runs on a warmer cache than another.
  mix.sort(() => random() - 0.5);

  const times = new Map<string, number[]>();
  const quality = new Map<string, { found: number; total: number }>();
  const record = (name: string, ms: number) => times.set(name, [...(times.get(name) ?? []), ms]);
  for (const item of mix.slice(0, 20))
    await searchPosts(ctx, null, { campusId: item.campusId, q: item.q, show: "latest" });
  console.log(`Running ${mix.length} post searches`);
  for (const item of mix) {
    const started = performance.now();
    const page = await searchPosts(ctx, null, {
      campusId: item.campusId,
      q: item.q,
      show: item.show ?? "latest",
      filters: { ...DEFAULT_SEARCH_FILTERS, category: item.category ?? null },
    });
    record(item.name, performance.now() - started);
    if (item.expect) {
      const q = quality.get(item.name) ?? { found: 0, total: 0 };
      q.total++;
      if (page.items.some((post) => post.id === item.expect)) q.found++;
      quality.set(item.name, q);
    }
  }
  console.log("Suggestions and people");
  for (const s of samples.slice(0, PER_KIND)) {
    const word = pick(s.words) ?? "de";
    let started = performance.now();
    await getSearchSuggestions(ctx, null, { campusId: s.campusId, text: word.slice(0, 3) });
    record("suggestions (3 letters typed)", performance.now() - started);
    const name = pick(FIRST_NAMES).toLowerCase();
    started = performance.now();
    await searchPeople(ctx, null, {
      campusId: s.campusId,
      text: name.slice(0, 2 + Math.floor(random() * 4)),
    });
    record("people (2–5 letters of a name)", performance.now() - started);
  }

  const lines: string[] = [];
  lines.push(`## ${target.label}, ${new Date().toISOString().slice(0, 10)}`, "");
  lines.push(
    `Load average when the queries began: ${(await import("node:os"))
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(" / ")}`,
    "",
  );
  lines.push("| query kind | n | p50 ms | p95 ms | p99 ms | max ms |", "|---|---|---|---|---|---|");
  for (const [name, values] of times) {
    const p = percentiles(values);
    lines.push(
      `| ${name} | ${p.n} | ${p.p50.toFixed(1)} | ${p.p95.toFixed(1)} | ${p.p99.toFixed(1)} | ${p.max.toFixed(1)} |`,
    );
  }
  const allPosts = [...times]
    .filter(([n]) => !n.startsWith("suggestions") && !n.startsWith("people"))
    .flatMap(([, v]) => v);
  const all = percentiles(allPosts);
  lines.push(
    `| **all post searches** | ${all.n} | ${all.p50.toFixed(1)} | ${all.p95.toFixed(1)} | ${all.p99.toFixed(1)} | ${all.max.toFixed(1)} |`,
    "",
  );
  lines.push("| typo quality | found in the first 10 | of |", "|---|---|---|");
  for (const [name, q] of quality)
    lines.push(`| ${name} | ${((100 * q.found) / q.total).toFixed(1)} % | ${q.total} |`);
  lines.push("");

  // EXPLAIN of each query shape, on OU with its commonest word, a rare word, and a 2-letter prefix:
  // the dictionary statement, then the posts query by the plan searchPosts chooses.
  const explainRows = async (text: string, params: unknown[]) =>
    (database.pool
      ? (await database.pool.query(`explain (analyze, buffers, costs off) ${text}`, params)).rows
      : ((await database.pglite?.query(`explain (analyze, buffers, costs off) ${text}`, params))?.rows ??
        [])) as Record<string, string>[];
  const pushPlan = (title: string, plan: Record<string, string>[]) => {
    lines.push(title, "", "```");
    for (const row of plan) lines.push(Object.values(row)[0] ?? "");
    lines.push("```", "");
  };
  const explain = async (title: string, q: string, show: "latest" | "media", category: string | null) => {
    const words = searchWords(q);
    const lookup = termLookupQuery("ou", words);
    const groups = await expandWords(database.db, "ou", words);
    if (!lookup || !groups) return;
    const filters = { ...DEFAULT_SEARCH_FILTERS, category };
    const plan = choosePostSearchPlan(groups, show, filters);
    const dictionary = new PgDialect().sqlToQuery(lookup);
    const dictionaryPlan = await explainRows(dictionary.sql, dictionary.params);
    const query = postSearchQuery(database.db, null, {
      campusId: "ou",
      tsquery: toTsQuery(groups),
      show,
      filters,
      after: null,
      limit: 11,
      plan,
      // Decision 0546: the clock's now, against which authors' suspensions are compared.
      now: new Date().toISOString(),
    }).toSQL();
    const postsPlan = await explainRows(query.sql, query.params as unknown[]);
    const time = (rows: Record<string, string>[]) =>
      rows.map((row) => Object.values(row)[0] ?? "").find((line) => line.startsWith("Execution Time"));
    summary.push(
      `| ${title} | \`${q}\` | ${groups.map((g) => g.terms.length).join(" × ")} | ${time(dictionaryPlan)?.replace("Execution Time: ", "")} | ${plan} | ${time(postsPlan)?.replace("Execution Time: ", "")} |`,
    );
    pushPlan(`### EXPLAIN: ${title}, dictionary statement (\`${q}\`)`, dictionaryPlan);
    pushPlan(
      `### EXPLAIN: ${title}, posts query, ${plan} (\`${q}\` → ${groups.map((g) => g.terms.length).join(" × ")} terms)`,
      postsPlan,
    );
  };
  const summary: string[] = [
    "| shape | typed | terms per word | dictionary ms | posts plan | posts ms |",
    "|---|---|---|---|---|---|",
  ];
  const rareOu = rowsOf<{ term: string }>(
    await database.db.execute(
      sql`select term from search_terms where campus_id = 'ou' and doc_count = 3 and char_length(term) >= 9 limit 1`,
    ),
  )[0]?.term;
  const explainLines = lines.length;
  await explain("common word", common[0] ?? "used", "latest", null);
  if (rareOu) await explain("rare word", rareOu, "latest", null);
  await explain("two-letter prefix", "de", "latest", null);
  await explain("common word, media tab", common[1] ?? "used", "media", null);
  await explain("common word + category", common[0] ?? "used", "latest", "furniture");
  await explain("two common words", `${common[0] ?? "used"} ${common[2] ?? "new"}`, "latest", null);
  if (rareOu) await explain("one typo", typo(rareOu), "latest", null);
  if (rareOu) await explain("two typos", typo(typo(rareOu)), "latest", null);
  lines.splice(
    explainLines,
    0,
    "EXPLAIN (ANALYZE) times of each shape (full plans below):",
    "",
    ...summary,
    "",
  );

  const report = lines.join("\n");
  console.log(report);
  const file = `bench/results/search-${target.kind}.md`;
  writeFileSync(file, `${report}\n`);
  console.log(`Written to ${file}`);
  await database.close();
}

// Run only as a script, not when search-http.ts imports the context.
if (process.argv[1]?.endsWith("search.ts")) await main();
