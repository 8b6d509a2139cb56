/**
 * A streaming reader of `multipart/form-data` bodies (RFC 7578 over RFC 2046),
 * fed chunk by chunk, holding no more than one chunk and a part's headers (decision 0120:
 * uploads are streamed to disk, never held whole). It only splits the body into
 * parts and says what each part is; the caller decides where the bytes go and how
 * many it accepts (server/uploads/upload-form.ts).
 */

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

export interface MultipartPartInfo {
  /** The form field's name. */
  name: string;
  /** The file's name for a file part (possibly ""), null for a text field. */
  filename: string | null;
  /** The part's Content-Type, if it says one. */
  contentType: string | null;
}

export type MultipartEvent =
  | ({ type: "part" } & MultipartPartInfo)
  /** Bytes of the current part's body (a view the caller may keep). */
  | { type: "data"; bytes: Uint8Array }
  | { type: "part-end" }
  /** The closing delimiter: every part has been seen; what follows is ignored. */
  | { type: "done" };

export interface MultipartLimits {
  /** The header block of one part (and any preamble before the first part). */
  maxHeaderBytes: number;
  /** How many parts one body may have. */
  maxParts: number;
}

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary of a `multipart/form-data` Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType) return null;
  const [mediaType, ...params] = splitParams(contentType);
  if (mediaType?.toLowerCase() !== "multipart/form-data") return null;
  const boundary = params.find(([key]) => key === "boundary")?.[1];
  // RFC 2046 §5.1.1: 1 to 70 characters.
  if (!boundary || boundary.length > 70) return null;
  return boundary;
}

/** `type; a=1; b="x;y"` → ["type", ["a", "1"], ["b", "x;y"]] (keys lower-cased, quotes removed). */
function splitParams(header: string): [string, ...[string, string][]] {
  const first = header.indexOf(";");
  const head = (first === -1 ? header : header.slice(0, first)).trim();
  const params: [string, string][] = [];
  // Browsers never backslash-escape inside quotes (they write `"` as %22): a quote ends the value.
  const pattern = /;\s*([^=;\s]+)\s*=\s*("[^"]*"|[^;]*)/gy;
  pattern.lastIndex = first === -1 ? header.length : first;
  for (let match = pattern.exec(header); match; match = pattern.exec(header)) {
    const key = (match[1] ?? "").toLowerCase();
    const raw = (match[2] ?? "").trim();
    const value = raw.startsWith('"') ? raw.slice(1, -1) : raw;
    params.push([key, value]);
  }
  return [head, ...params];
}

function parsePartHeaders(block: Uint8Array): MultipartPartInfo {
  // Browsers send file names as raw UTF-8 (RFC 7578 §4.2).
  const text = new TextDecoder("utf-8").decode(block);
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError("A part header has no name.");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (!disposition) throw new MultipartError("A part has no Content-Disposition.");
  const [kind, ...params] = splitParams(disposition);
  if (kind.toLowerCase() !== "form-data") throw new MultipartError("A part is not form-data.");
  const name = params.find(([key]) => key === "name")?.[1];
  if (name === undefined) throw new MultipartError("A part has no field name.");
  const filename = params.find(([key]) => key === "filename")?.[1];
  return {
    name: unescapeName(name),
    filename: filename === undefined ? null : unescapeName(filename),
    contentType,
  };
}

/** Browsers write `"`, CR and LF in names as %22, %0D, %0A (Fetch 'multipart/form-data' parsing undoes it). */
function unescapeName(value: string): string {
  return value.replace(/%22/g, '"').replace(/%0D/g, "\r").replace(/%0A/g, "\n");
}

type State = "preamble" | "after-delimiter" | "headers" | "body" | "done";

/**
 * Push bytes with write(); each call returns what they completed. end() checks
 * that the body was whole. Throws MultipartError on anything malformed.
 */
export class MultipartParser {
  /** `\r\n--boundary`: what ends every part's body. */
  private readonly delimiter: Buffer;
  private readonly limits: MultipartLimits;
  private state: State = "preamble";
  /** Bytes not yet decided on: at most a delimiter's length, or a header block. */
  private pending: Buffer;
  private parts = 0;

  constructor(boundary: string, limits: MultipartLimits) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
    this.limits = limits;
    // The first delimiter has no CRLF before it: pretend there was one.
    this.pending = Buffer.from(CRLF);
  }

  get finished(): boolean {
    return this.state === "done";
  }

  write(chunk: Uint8Array): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === "done") return events;
    let buffer = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.state === "preamble") {
        const at = buffer.indexOf(this.delimiter);
        if (at === -1) {
          if (buffer.length > this.limits.maxHeaderBytes) throw new MultipartError("No boundary was found.");
          break;
        }
        buffer = buffer.subarray(at + this.delimiter.length);
        this.state = "after-delimiter";
      } else if (this.state === "after-delimiter") {
        // `--` closes the body; otherwise optional spaces (RFC 2046 transport padding), then CRLF.
        if (buffer.length < 2) break;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          this.state = "done";
          events.push({ type: "done" });
          buffer = Buffer.alloc(0);
          break;
        }
        let i = 0;
        while (i < buffer.length && (buffer[i] === 0x20 || buffer[i] === 0x09)) i++;
        if (i > 64) throw new MultipartError("A boundary line is malformed.");
        if (buffer.length < i + 2) break;
        if (buffer[i] !== 13 || buffer[i + 1] !== 10)
          throw new MultipartError("A boundary line is malformed.");
        buffer = buffer.subarray(i + 2);
        this.state = "headers";
      } else if (this.state === "headers") {
        // A part without headers (the blank line straight away) cannot name its field.
        if (buffer.length >= 2 && buffer[0] === 13 && buffer[1] === 10) {
          throw new MultipartError("A part has no Content-Disposition.");
        }
        const end = buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (buffer.length > this.limits.maxHeaderBytes)
            throw new MultipartError("A part's headers are too long.");
          break;
        }
        if (end > this.limits.maxHeaderBytes) throw new MultipartError("A part's headers are too long.");
        this.parts++;
        if (this.parts > this.limits.maxParts) throw new MultipartError("The form has too many parts.");
        events.push({ type: "part", ...parsePartHeaders(buffer.subarray(0, end)) });
        buffer = buffer.subarray(end + 4);
        this.state = "body";
      } else if (this.state === "body") {
        const at = buffer.indexOf(this.delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter split across chunks.
          const safe = buffer.length - (this.delimiter.length - 1);
          if (safe > 0) {
            events.push({ type: "data", bytes: buffer.subarray(0, safe) });
            buffer = buffer.subarray(safe);
          }
          break;
        }
        if (at > 0) events.push({ type: "data", bytes: buffer.subarray(0, at) });
        events.push({ type: "part-end" });
        buffer = buffer.subarray(at + this.delimiter.length);
        this.state = "after-delimiter";
      } else {
        break;
      }
    }
    // Copied, so the chunk's memory is not kept alive by a small remainder.
    this.pending = Buffer.from(buffer);
    return events;
  }

  /** The body ended: throws unless the closing delimiter was seen. */
  end(): void {
    if (this.state !== "done") throw new MultipartError("The form ended before its closing boundary.");
  }
}
