import type { NextFunction, Request, Response } from "express";
import { type BodyEncoding, compressBody, preferredEncoding } from "../compress";

/**
 * A short-lived cache of the pages visitors read most (decision 0104): the feed, a
 * post and the media grid, as server-rendered HTML, for requests that carry no
 * session and no per-visitor state. A page costs the app ~15 ms of CPU to render and
 * is the same for every visitor of a campus, so a link shared in a group chat is
 * rendered once per few seconds instead of once per click.
 *
 * What keeps it correct:
 * - Only requests whose cookies are all in `sharedCookies` (the reported time zone,
 *   which is part of the key) are served or stored; a session, a queued toast or a
 *   once-only redirect cookie always reaches the app.
 * - Only 200 responses without Set-Cookie are stored.
 * - Every write (any method but GET/HEAD/OPTIONS) on a host drops the pages of that host's
 *   campus (all its hosts) when it finishes, and a page rendered while a write was in flight
 *   is not stored. Other processes drop theirs when told through `invalidateCampus` (the
 *   realtime hub's NOTIFY on `page_cache`, fed by `onWrite`; decisions 0293, 0360), and at the
 *   latest after `ttlMs`.
 * - A hit is the page as it was rendered, byte for byte, with the Content-Security-Policy
 *   it was sent with: its nonce authorises exactly the scripts of that fixed body, which
 *   nothing can change after rendering (decision 0104). Being identical, the page is
 *   compressed once per stored copy (brotli, gzip), not once per visitor.
 * - `admit` runs for every hit (the geo gate), so nobody is served a page the app
 *   would have refused them.
 */
export interface PageCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Larger pages are not stored. */
  maxBytes: number;
  /** Which paths may be cached (e.g. /home, /post/{id}). */
  cacheablePath(path: string): boolean;
  /** Cookie names that do not make a request personal; their values are part of the key. */
  sharedCookies: readonly string[];
  /** Whether this request may be served a cached page at all (the geo gate's decision). */
  admit(req: Request): Promise<boolean>;
  /** The campus a host serves (the campus directory); pages are dropped by campus. Default: the host itself. */
  campusOf?(host: string): string;
  /**
   * Called when a write on this process finished (after its pages were dropped here), with the
   * campus it was on: the hook to tell the other processes, which call `invalidateCampus`.
   */
  onWrite?(campusId: string): void;
  now?: () => number;
}

/** What the app keeps of the page cache: its middleware, and the call another process's write makes. */
export interface PageCache {
  middleware(req: Request, res: Response, next: NextFunction): Promise<void>;
  /**
   * Drops every stored page of the campus, and keeps a page whose render is under way from
   * being stored (it may predate the change). One call per remote write: idempotent and cheap.
   */
  invalidateCampus(campusId: string): void;
  /** Drops every page: a change made outside a request on a host (the payment webhook, the ads job). */
  dropAll(): void;
  /** How many pages are held (for tests and diagnostics). */
  readonly size: number;
}

interface CachedPage {
  campus: string;
  storedAt: number;
  body: Buffer;
  /** Compressed copies, made on the first hit that accepts each. */
  encoded: { br?: Buffer; gzip?: Buffer };
  headers: Record<string, string>;
}

/** Headers of the app's response that describe the page itself, its script policy included. */
const KEPT_HEADERS = ["content-type", "cache-control", "link", "content-language", "content-security-policy"];

function encode(page: CachedPage, encoding: BodyEncoding): Buffer {
  let encoded = page.encoded[encoding];
  if (!encoded) {
    // Sent to many visitors: a little more time for a smaller body.
    encoded = compressBody(page.body, encoding, 5);
    page.encoded[encoding] = encoded;
  }
  return encoded;
}

export const PAGE_CACHE_HEADER = "X-Page-Cache";

function isWrite(method: string): boolean {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

/** The cookie names and values of a request, or null when it has one the cache must not share. */
function sharedCookieValues(header: string | undefined, shared: readonly string[]): string[] | null {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const equals = trimmed.indexOf("=");
    const name = equals === -1 ? trimmed : trimmed.slice(0, equals);
    if (!shared.includes(name)) return null;
    values.push(trimmed);
  }
  return values.sort();
}

export function createPageCache(options: PageCacheOptions): PageCache {
  // Ages in elapsed time, not the time of day (decision 0481): a moved test clock does not age pages.
  const now = options.now ?? (() => performance.now());
  const campusOf = options.campusOf ?? ((host: string) => host);
  const pages = new Map<string, CachedPage>();
  /** Per campus: bumped when a write starts and finishes, so a page rendered across it is not stored. */
  const generations = new Map<string, number>();
  /** Bumped by dropAll: a render under way on any campus, even one with no page stored yet, is not stored. */
  let epoch = 0;

  function dropCampus(campus: string) {
    generations.set(campus, (generations.get(campus) ?? 0) + 1);
    for (const [key, page] of pages) if (page.campus === campus) pages.delete(key);
  }

  function store(key: string, page: CachedPage) {
    pages.delete(key);
    pages.set(key, page);
    // Oldest first: Map keeps insertion order, and a stored page is re-inserted.
    while (pages.size > options.maxEntries) {
      const oldest = pages.keys().next().value;
      if (oldest === undefined) break;
      pages.delete(oldest);
    }
  }

  function keyOf(req: Request): { campus: string; key: string } | null {
    if (req.method !== "GET") return null;
    if (!options.cacheablePath(req.path)) return null;
    const cookies = sharedCookieValues(req.headers.cookie, options.sharedCookies);
    if (!cookies) return null;
    const host = (req.headers.host ?? "").toLowerCase();
    return { campus: campusOf(host), key: `${host} ${req.originalUrl} ${cookies.join("; ")}` };
  }

  async function serveHit(req: Request, res: Response, key: string): Promise<boolean> {
    const page = pages.get(key);
    if (!page) return false;
    if (now() - page.storedAt >= options.ttlMs) {
      pages.delete(key);
      return false;
    }
    if (!(await options.admit(req))) return false;
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    const body = encoding ? encode(page, encoding) : page.body;
    res.status(200);
    for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
    res.setHeader("Vary", "Accept-Encoding");
    // Set before the compression middleware looks: it leaves an encoded body alone.
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader(PAGE_CACHE_HEADER, "hit");
    res.setHeader("Content-Length", body.length);
    res.end(body);
    return true;
  }

  /** Records what the app writes, and stores it if the response qualifies. */
  function capture(res: Response, campus: string, key: string) {
    const generation = generations.get(campus) ?? 0;
    const startEpoch = epoch;
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (tooLarge || chunk == null || typeof chunk === "function") return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : null;
      if (!buffer) return;
      size += buffer.length;
      if (size > options.maxBytes) tooLarge = true;
      else chunks.push(buffer);
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as Response["end"];
    res.once("finish", () => {
      if (tooLarge || res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined) return;
      if (!String(res.getHeader("content-type") ?? "").startsWith("text/html")) return;
      if ((generations.get(campus) ?? 0) !== generation || epoch !== startEpoch) return;
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      }
      store(key, {
        campus,
        storedAt: now(),
        body: Buffer.concat(chunks),
        encoded: {},
        headers,
      });
    });
    res.setHeader(PAGE_CACHE_HEADER, "miss");
  }

  async function middleware(req: Request, res: Response, next: NextFunction) {
    if (isWrite(req.method)) {
      const campus = campusOf((req.headers.host ?? "").toLowerCase());
      // Also on failure: a write that failed halfway through its own transactions still wrote something.
      res.once("close", () => {
        dropCampus(campus);
        options.onWrite?.(campus);
      });
      generations.set(campus, (generations.get(campus) ?? 0) + 1);
      next();
      return;
    }
    const target = keyOf(req);
    if (!target) {
      next();
      return;
    }
    try {
      if (await serveHit(req, res, target.key)) return;
    } catch (error) {
      next(error);
      return;
    }
    capture(res, target.campus, target.key);
    next();
  }

  return {
    middleware,
    invalidateCampus: dropCampus,
    /** Drops every page: a change made outside a request on a host (the payment webhook, the ads job). */
    dropAll() {
      epoch++;
      for (const campus of new Set([...pages.values()].map((page) => page.campus))) dropCampus(campus);
    },
    /** How many pages are held (for tests and diagnostics). */
    get size() {
      return pages.size;
    },
  };
}

/** The pages most read by visitors (spec 2 §2), which the page cache keeps: the feed, a post, the media grid and a media post. */
const visitorPagePath = /^\/(home|media|post\/[^/]+|media\/[^/]+)\/?$/;
export function isVisitorPagePath(path: string): boolean {
  return visitorPagePath.test(path);
}
