import { openAsBlob } from "node:fs";
import { type FileHandle, mkdir, mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { systemClock } from "../clock";
import { formHoldsNul } from "../http/middleware/form-bodies";
import { MultipartError, MultipartParser, multipartBoundary } from "./multipart";

/**
 * Reading form posts that may carry files (decision 0120). The body is
 * never held whole: files are streamed to a folder of their own under
 * `DATA_DIR/tmp/uploads`, and the form hands them on as disk-backed `File`s, which
 * the domain reads like any other (slice, stream, arrayBuffer). The caller removes
 * the folder when it is done, whatever happened (`dispose`).
 *
 * A refused body is never cancelled: cancelling resets the connection before the
 * answer is sent. It is left unread instead, and the HTTP layer closes the
 * connection after answering (server/http/middleware/body-limit.ts).
 */

export interface UploadFormLimits {
  /** The whole body, as declared (Content-Length) or as counted when it arrives chunked. */
  maxBodyBytes: number;
  /** One file. */
  maxFileBytes: number;
  /** All text fields together (they are held in memory). */
  maxFieldBytes: number;
  /** Parts of a multipart body, files and fields together. */
  maxParts: number;
}

export type UploadFormResult =
  | {
      kind: "form";
      form: FormData;
      /** Removes the files' folder; call it once the request is answered. */
      dispose(): Promise<void>;
    }
  /** Over one of the byte limits: nothing past the limit was read; nothing is left on disk. */
  | { kind: "too-large" }
  /** Not a form we can read (broken multipart, another content type); nothing is left on disk. */
  | { kind: "malformed"; reason: string };

/**
 * A reader of one kind of upload form (the composer's, the profile photo's): it reads the posted
 * form within `limits` (readUploadForm), answers `handle` with it and removes its files afterwards,
 * whatever happened. A body over the caps ('too-large') or one that cannot be read ('malformed',
 * logged as an unreadable `what` form) is answered by `refuse`, without `handle`.
 */
export function uploadFormReader<Refusal>(
  what: string,
  limits: UploadFormLimits,
  refuse: (kind: "too-large" | "malformed") => Refusal,
) {
  return async <Answer>(
    app: { config: { dataDir: string }; log: { warn(details: object, message: string): void } },
    request: Request,
    handle: (form: FormData) => Promise<Answer>,
  ): Promise<Answer | Refusal> => {
    let read: UploadFormResult;
    try {
      read = await readUploadForm(request, uploadTempRoot(app.config.dataDir), limits);
    } catch (error) {
      app.log.warn({ err: error }, `unreadable ${what} form`);
      read = { kind: "malformed", reason: "unreadable" };
    }
    if (read.kind !== "form") return refuse(read.kind);
    try {
      return await handle(read.form);
    } finally {
      await read.dispose();
    }
  };
}

/** The folder the request folders go in: `DATA_DIR/tmp/uploads`. */
export function uploadTempRoot(dataDir: string): string {
  return path.join(dataDir, "tmp", "uploads");
}

const REQUEST_FOLDER_PREFIX = "req-";

/** The largest header block of a part (and preamble) we read. */
const MAX_PART_HEADER_BYTES = 16 * 1024;

class TooLarge extends Error {}

/** The body's chunks, counted against `maxBytes`; stops reading (without cancelling) on leaving. */
async function* bodyChunks(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > maxBytes) throw new TooLarge();
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get("Content-Length");
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

/** An absent Content-Type is read as a url-encoded form, as `request.formData()` would not. */
function bodyKind(request: Request): { kind: "multipart"; boundary: string } | { kind: "urlencoded" } | null {
  const contentType = request.headers.get("Content-Type");
  if (contentType === null || contentType.trim() === "") return { kind: "urlencoded" };
  const boundary = multipartBoundary(contentType);
  if (boundary) return { kind: "multipart", boundary };
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/x-www-form-urlencoded" ? { kind: "urlencoded" } : null;
}

const NUL_FIELD = "A field holds a NUL character.";

async function readUrlEncoded(request: Request, maxBytes: number): Promise<FormData> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(request, maxBytes)) chunks.push(chunk);
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString("utf-8"))) {
    form.append(name, value);
  }
  return form;
}

/**
 * Reads `request`'s form within `limits`, files to a new folder under `tempRoot`.
 * A Content-Length over the limit is refused before any byte is read; a chunked
 * body is counted as it arrives and reading stops at the limit.
 */
export async function readUploadForm(
  request: Request,
  tempRoot: string,
  limits: UploadFormLimits,
): Promise<UploadFormResult> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limits.maxBodyBytes) return { kind: "too-large" };
  const kind = bodyKind(request);
  if (!kind) return { kind: "malformed", reason: "The body is not a form." };
  if (kind.kind === "urlencoded") {
    try {
      const form = await readUrlEncoded(request, Math.min(limits.maxBodyBytes, limits.maxFieldBytes));
      if (formHoldsNul(form)) return { kind: "malformed", reason: NUL_FIELD };
      return { kind: "form", form, dispose: async () => {} };
    } catch (error) {
      if (error instanceof TooLarge) return { kind: "too-large" };
      throw error;
    }
  }

  let folder: string | null = null;
  const dispose = async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  };
  let handle: FileHandle | null = null;
  try {
    const parser = new MultipartParser(kind.boundary, {
      maxHeaderBytes: MAX_PART_HEADER_BYTES,
      maxParts: limits.maxParts,
    });
    const form = new FormData();
    let fileCount = 0;
    let fieldBytes = 0;
    let part:
      | { kind: "field"; name: string; chunks: Uint8Array[] }
      | { kind: "file"; name: string; filename: string; type: string; file: string; bytes: number }
      | null = null;

    for await (const chunk of bodyChunks(request, limits.maxBodyBytes)) {
      for (const event of parser.write(chunk)) {
        if (event.type === "part") {
          if (event.filename === null) {
            part = { kind: "field", name: event.name, chunks: [] };
          } else {
            folder ??= await makeRequestFolder(tempRoot);
            part = {
              kind: "file",
              name: event.name,
              filename: event.filename,
              type: event.contentType ?? "application/octet-stream",
              // Named by position only: nothing the client sends reaches a path.
              file: path.join(folder, String(fileCount++)),
              bytes: 0,
            };
          }
        } else if (event.type === "data" && part) {
          if (part.kind === "field") {
            fieldBytes += event.bytes.byteLength;
            if (fieldBytes > limits.maxFieldBytes) throw new TooLarge();
            part.chunks.push(event.bytes);
          } else {
            part.bytes += event.bytes.byteLength;
            if (part.bytes > limits.maxFileBytes) throw new TooLarge();
            handle ??= await open(part.file, "wx");
            await handle.write(event.bytes);
          }
        } else if (event.type === "part-end" && part) {
          if (part.kind === "field") {
            form.append(part.name, Buffer.concat(part.chunks).toString("utf-8"));
          } else if (handle) {
            await handle.close();
            handle = null;
            const blob = await openAsBlob(part.file, { type: part.type });
            form.append(part.name, new File([blob], part.filename, { type: part.type }));
          } else {
            // An empty file input still sends one empty part.
            form.append(part.name, new File([], part.filename, { type: part.type }));
          }
          part = null;
        }
      }
      if (parser.finished) break;
    }
    parser.end();
    if (formHoldsNul(form)) {
      await dispose();
      return { kind: "malformed", reason: NUL_FIELD };
    }
    return { kind: "form", form, dispose };
  } catch (error) {
    await handle?.close().catch(() => {});
    await dispose();
    if (error instanceof TooLarge) return { kind: "too-large" };
    if (error instanceof MultipartError) return { kind: "malformed", reason: error.message };
    throw error;
  }
}

async function makeRequestFolder(tempRoot: string): Promise<string> {
  await mkdir(tempRoot, { recursive: true });
  return mkdtemp(path.join(tempRoot, REQUEST_FOLDER_PREFIX));
}

/**
 * The text fields that come before the body's first file, reading at most
 * `maxBytes` of it and writing nothing to disk: enough to word a refusal (the
 * composer's `enhanced` field comes first) without taking in an upload that is
 * refused anyway. An unreadable or cut-off form (or a failed read) gives the fields seen so far.
 */
export async function readLeadingFields(request: Request, maxBytes: number): Promise<FormData> {
  const form = new FormData();
  const kind = bodyKind(request);
  if (!kind) return form;
  try {
    if (kind.kind === "urlencoded") {
      const declared = declaredLength(request);
      return declared !== null && declared <= maxBytes ? await readUrlEncoded(request, maxBytes) : form;
    }
    const parser = new MultipartParser(kind.boundary, {
      maxHeaderBytes: MAX_PART_HEADER_BYTES,
      maxParts: 64,
    });
    let field: { name: string; chunks: Uint8Array[] } | null = null;
    for await (const chunk of bodyChunks(request, maxBytes)) {
      for (const event of parser.write(chunk)) {
        if (event.type === "part") {
          if (event.filename !== null) return form;
          field = { name: event.name, chunks: [] };
        } else if (event.type === "data" && field) {
          field.chunks.push(event.bytes);
        } else if (event.type === "part-end" && field) {
          form.append(field.name, Buffer.concat(field.chunks).toString("utf-8"));
          field = null;
        } else if (event.type === "done") {
          return form;
        }
      }
    }
  } catch {
    // Over the budget, broken, or the client went away: the refusal is worded from what was seen.
  }
  return form;
}

/**
 * Removes request folders left by a process that stopped mid-request (at start-up;
 * a folder younger than `olderThanMs` may belong to another process on the same
 * DATA_DIR). Best effort: returns how many it removed.
 */
export async function sweepUploadTemp(
  tempRoot: string,
  olderThanMs: number,
  // The machine's clock, as the folders' modification times are (decision 0481), never a moved test clock.
  now = systemClock.now().getTime(),
): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(tempRoot);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.startsWith(REQUEST_FOLDER_PREFIX)) continue;
    const folder = path.join(tempRoot, entry);
    try {
      if (now - (await stat(folder)).mtimeMs < olderThanMs) continue;
      await rm(folder, { recursive: true, force: true });
      removed++;
    } catch {
      // Gone already, or not ours to remove: the next start tries again.
    }
  }
  return removed;
}
