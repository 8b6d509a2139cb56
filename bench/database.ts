// Where the benchmark's data lives: the same two kinds of database the app runs on
// (docs/contract.md 'Environment'), chosen the same way: DATABASE_URL, else PGlite in DATA_DIR.
import { tmpdir } from "node:os";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";

export interface BenchTarget {
  kind: "pglite" | "postgres";
  /** For PGlite: the data dir the app is started with (the database is in DATA_DIR/db). */
  dataDir: string;
  databaseUrl: string | null;
  /** What the README calls it. */
  label: string;
}

/** The default PGlite data dir of the benchmark: outside the repository, never the app's own ./data. */
export const DEFAULT_BENCH_DATA_DIR = path.join(tmpdir(), "cbs-bench");

/**
 * The database the benchmark uses. A PostgreSQL database named `test` (the one the
 * test suite copies its template into, .ci/run) or the app's default ./data are
 * refused: the generator fills whatever it is given with 1.4 million rows.
 */
export function benchTarget(env: NodeJS.ProcessEnv = process.env): BenchTarget {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl) {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ""));
    if (!name || name === "test" || name === "postgres") {
      throw new Error(
        `Refusing to use the database ${JSON.stringify(name || "(none)")}: give the benchmark its own, ` +
          "e.g. createdb -h 127.0.0.1 -U postgres cbs_bench; DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench",
      );
    }
    return { kind: "postgres", dataDir: DEFAULT_BENCH_DATA_DIR, databaseUrl, label: `PostgreSQL (${name})` };
  }
  const dataDir = path.resolve(env.DATA_DIR || DEFAULT_BENCH_DATA_DIR);
  if (dataDir === path.resolve("data")) {
    throw new Error("Refusing to fill the app's own ./data: set DATA_DIR to a directory for the benchmark.");
  }
  return { kind: "pglite", dataDir, databaseUrl: null, label: `PGlite (${dataDir})` };
}

/** The generated sizes (decision 0102). */
export const BENCH_SIZES = {
  users: 5_000,
  /** Top-level posts, of which `newUserPosts` are the 'new user' banners (one per user). */
  posts: 100_000,
  newUserPosts: 5_000,
  comments: 300_000,
  /** Of the comments, how many answer a comment rather than a post. */
  nestedComments: 100_000,
  saves: 1_000_000,
  /** Every user saves this many posts of their campus (users × savesPerUser = saves). */
  savesPerUser: 200,
} as const;

/** The account the load script signs in with (for /saved). */
export const BENCH_USER = {
  id: "bench-user-0",
  email: "bench0@bench.example.edu",
  password: "bench-pass-1",
  username: "bench0",
} as const;

/** First names of the generated users (bench/generate.ts takes the first ten, bench/search.ts all). */
export const BENCH_FIRST_NAMES: string[] = [
  "Avery",
  "Blake",
  "Casey",
  "Devon",
  "Emery",
  "Finley",
  "Harper",
  "Jordan",
  "Kai",
  "Logan",
  "Morgan",
  "Quinn",
  "Riley",
  "Sawyer",
  "Taylor",
  "Rowan",
  "Parker",
  "Reese",
  "Skyler",
  "Dakota",
];

/**
 * Posts loaded in bulk without the per-row search dictionary trigger (decision 0191): with it, a
 * 100,000-post insert spends most of an hour counting terms row by row. The caller rebuilds the
 * dictionary once afterwards (`rebuildSearchTerms`).
 */
export async function withoutSearchTermsTrigger<T>(
  db: { execute(query: SQL): Promise<unknown> },
  load: () => Promise<T>,
): Promise<T> {
  await db.execute(sql`alter table posts disable trigger posts_search_terms_track`);
  const result = await load();
  await db.execute(sql`alter table posts enable trigger posts_search_terms_track`);
  return result;
}
