import { createHash } from "node:crypto";

/**
 * Video metadata removal without a re-encoder (decision 0121). A phone
 * video carries where it was filmed (QuickTime `©xyz`, Apple's
 * `com.apple.quicktime.location.ISO6709`, XMP, GoPro or Google location tracks)
 * and more: camera, owner, time. No byte moves: metadata boxes and chunks become
 * padding of the same size (`free` in MP4 and QuickTime, `JUNK` in AVI) with their
 * content zeroed, and the samples of timed-metadata tracks are zeroed where they
 * lie, so every offset the file holds (stco/co64, idx1, indx) stays true and the
 * pictures and sound are untouched.
 *
 * Planning reads headers only (a window at a time, from the file on disk); the
 * edits are then applied to the file as it streams into storage. Anything that
 * does not parse, or parses beyond the bounds below, is refused rather than stored
 * with its metadata.
 */

export type VideoContainer = "mp4" | "mov" | "avi";

/** Bytes [start, end) of the file become `bytes` (same length) or, without it, zeros. */
export interface ByteEdit {
  start: number;
  end: number;
  bytes?: Uint8Array;
}

/**
 * At most this many boxes (MP4, QuickTime) or chunks (AVI) are looked at: an AVI
 * of an hour holds a few hundred thousand frame and sound chunks.
 */
export const MAX_VIDEO_BOXES = 1_000_000;
/** The movie header (`moov`) is read whole; real ones are kilobytes to a few megabytes. */
export const MAX_MOVIE_HEADER_BYTES = 32 * 1024 * 1024;
/** Boxes inside one another, and AVI lists inside one another. */
const MAX_DEPTH = 8;

/**
 * Why a video was refused: 'unreadable' (its container does not parse within the
 * bounds) or 'metadata-kept' (it parses, but its metadata cannot be removed this
 * way). The message is for logs; the caller words it for its screen.
 */
export class VideoError extends Error {
  constructor(
    readonly code: "unreadable" | "metadata-kept",
    message: string,
  ) {
    super(message);
    this.name = "VideoError";
  }
}

export function isVideoError(error: unknown): error is VideoError {
  return error instanceof VideoError;
}

function unreadable(reason: string): VideoError {
  return new VideoError("unreadable", `The video could not be read: ${reason}.`);
}

function metadataKept(reason: string): VideoError {
  return new VideoError("metadata-kept", `The video's metadata could not be removed: ${reason}.`);
}

const latin1 = new TextDecoder("latin1");
const fourCC = (bytes: Uint8Array, at: number) => latin1.decode(bytes.subarray(at, at + 4));
const ascii = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

/** Reads a file a window at a time, so walking many small headers costs few reads. */
class WindowReader {
  private start = 0;
  private bytes = new Uint8Array(0);

  constructor(
    private readonly file: Blob,
    private readonly windowBytes = 1024 * 1024,
  ) {}

  get size(): number {
    return this.file.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (offset < 0 || length < 0 || offset + length > this.file.size)
      throw unreadable("a header runs past the end");
    const from = offset - this.start;
    if (from >= 0 && from + length <= this.bytes.byteLength) return this.bytes.subarray(from, from + length);
    if (length > this.windowBytes)
      return new Uint8Array(await this.file.slice(offset, offset + length).arrayBuffer());
    this.start = offset;
    this.bytes = new Uint8Array(
      await this.file.slice(offset, Math.min(this.file.size, offset + this.windowBytes)).arrayBuffer(),
    );
    return this.bytes.subarray(0, length);
  }
}

class Budget {
  private seen = 0;
  count(): void {
    this.seen++;
    if (this.seen > MAX_VIDEO_BOXES) throw unreadable("too many boxes");
  }
}

// ---------------------------------------------------------------------------
// MP4 and QuickTime (ISO base media file format, ISO/IEC 14496-12; QuickTime File Format).

interface Box {
  type: string;
  /** Absolute offsets in the file. */
  start: number;
  end: number;
  /** 8, or 16 with a 64-bit size; a `uuid` box's 16-byte user type follows it. */
  headerLength: number;
}

/** The box whose header is at `view[at]` (absolute offset `start`), ending no later than `limit`. */
function readBox(view: Uint8Array, at: number, start: number, limit: number, topLevel: boolean): Box {
  if (view.byteLength - at < 8) throw unreadable("a box header is cut off");
  const data = new DataView(view.buffer, view.byteOffset + at);
  const size32 = data.getUint32(0);
  const type = fourCC(view, at + 4);
  let size: number;
  let headerLength = 8;
  if (size32 === 1) {
    if (view.byteLength - at < 16) throw unreadable("a box header is cut off");
    const size64 = data.getBigUint64(8);
    if (size64 > BigInt(Number.MAX_SAFE_INTEGER)) throw unreadable("a box is too large");
    size = Number(size64);
    headerLength = 16;
  } else if (size32 === 0) {
    // 'Extends to the end of the file': only for the last top-level box.
    if (!topLevel) throw unreadable("a nested box has no size");
    size = limit - start;
  } else {
    size = size32;
  }
  if (size < headerLength + (type === "uuid" ? 16 : 0)) throw unreadable(`box '${type}' is too small`);
  if (start + size > limit) throw unreadable(`box '${type}' runs past its parent`);
  return { type, start, end: start + size, headerLength };
}

const FREE = ascii("free");

/** The box becomes `free` of the same size, its content (a uuid box's user type too) zeroed. */
function neutraliseBox(box: Box, edits: ByteEdit[]): void {
  edits.push({ start: box.start + 4, end: box.start + 8, bytes: FREE });
  zeroPayload(box, edits);
}

function zeroPayload(box: Box, edits: ByteEdit[]): void {
  if (box.end > box.start + box.headerLength)
    edits.push({ start: box.start + box.headerLength, end: box.end });
}

/** Top-level boxes that carry the movie; every other top-level box is metadata or unknown, and goes. */
const KEPT_TOP_LEVEL = new Set([
  "ftyp",
  "moov",
  "mdat",
  "moof",
  "mfra",
  "styp",
  "sidx",
  "ssix",
  "prft",
  "emsg",
  "pdin",
]);
/** Padding: kept, content zeroed (writers leave stale bytes in it). */
const PADDING = new Set(["free", "skip", "wide"]);
/** Metadata wherever it appears inside the movie header: user data, metadata, vendor boxes, XMP. */
const METADATA_BOXES = new Set(["udta", "meta", "uuid", "XMP_"]);
/** Sample formats of timed-metadata tracks: GoPro GPMF, Google CAMM, Apple/ISO timed metadata. */
const METADATA_SAMPLE_FORMATS = new Set(["gpmd", "camm", "mebx", "mett", "metx", "urim"]);
/** Handlers of tracks whose samples are metadata (ISO 'meta', Google's CAMM tracks). */
const METADATA_HANDLERS = new Set(["meta", "camm"]);

interface TrackTables {
  handler: string | null;
  formats: string[];
  stsz?: Uint8Array;
  stz2?: boolean;
  stsc?: Uint8Array;
  stco?: Uint8Array;
  co64?: Uint8Array;
}

/** The children of a box held in memory (`view` starts at absolute offset `base`). */
function* childBoxes(view: Uint8Array, base: number, parent: Box, budget: Budget): Generator<Box> {
  let offset = parent.start + parent.headerLength + (parent.type === "uuid" ? 16 : 0);
  while (offset < parent.end) {
    if (parent.end - offset < 8) throw unreadable(`box '${parent.type}' ends inside a child's header`);
    budget.count();
    const box = readBox(view, offset - base, offset, parent.end, false);
    yield box;
    offset = box.end;
  }
}

function payloadOf(view: Uint8Array, base: number, box: Box): Uint8Array {
  return view.subarray(box.start + box.headerLength - base, box.end - base);
}

interface MovieWalk {
  edits: ByteEdit[];
  tracks: TrackTables[];
  fragmented: boolean;
}

function walkMovie(view: Uint8Array, moov: Box, budget: Budget): MovieWalk {
  const walk: MovieWalk = { edits: [], tracks: [], fragmented: false };
  const base = moov.start;

  const visit = (parent: Box, depth: number, track: TrackTables | null) => {
    if (depth > MAX_DEPTH) throw unreadable("boxes are nested too deep");
    for (const box of childBoxes(view, base, parent, budget)) {
      if (METADATA_BOXES.has(box.type)) {
        neutraliseBox(box, walk.edits);
      } else if (PADDING.has(box.type)) {
        zeroPayload(box, walk.edits);
      } else if (box.type === "cmov") {
        // A zlib-compressed movie header: its metadata cannot be reached without rewriting it.
        throw metadataKept("the movie header is compressed");
      } else if (box.type === "mvex") {
        walk.fragmented = true;
      } else if (box.type === "trak") {
        const tables: TrackTables = { handler: null, formats: [] };
        walk.tracks.push(tables);
        visit(box, depth + 1, tables);
      } else if (track && (box.type === "mdia" || box.type === "minf" || box.type === "stbl")) {
        visit(box, depth + 1, track);
      } else if (track && box.type === "hdlr") {
        // FullBox header (4), pre_defined or QuickTime component type (4), then the handler type.
        const payload = payloadOf(view, base, box);
        if (payload.byteLength < 12) throw unreadable("a handler box is too small");
        track.handler = fourCC(payload, 8);
      } else if (track && box.type === "stsd") {
        track.formats = sampleFormats(payloadOf(view, base, box));
      } else if (track && box.type === "stsz") {
        track.stsz = payloadOf(view, base, box);
      } else if (track && box.type === "stz2") {
        track.stz2 = true;
      } else if (track && box.type === "stsc") {
        track.stsc = payloadOf(view, base, box);
      } else if (track && box.type === "stco") {
        track.stco = payloadOf(view, base, box);
      } else if (track && box.type === "co64") {
        track.co64 = payloadOf(view, base, box);
      }
    }
  };
  visit(moov, 1, null);
  return walk;
}

/** The formats of a sample description box (`stsd`): FullBox header, entry count, then entries. */
function sampleFormats(payload: Uint8Array): string[] {
  if (payload.byteLength < 8) throw unreadable("a sample description is too small");
  const data = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const count = data.getUint32(4);
  const formats: string[] = [];
  let offset = 8;
  for (let i = 0; i < count; i++) {
    if (payload.byteLength - offset < 8 || i >= 1000) throw unreadable("a sample description is malformed");
    const size = data.getUint32(offset);
    if (size < 8 || offset + size > payload.byteLength) throw unreadable("a sample description is malformed");
    formats.push(fourCC(payload, offset + 4));
    offset += size;
  }
  return formats;
}

function isMetadataTrack(track: TrackTables): boolean {
  return (
    (track.handler !== null && METADATA_HANDLERS.has(track.handler)) ||
    track.formats.some((format) => METADATA_SAMPLE_FORMATS.has(format))
  );
}

/** A FullBox table: its entry count (after version and flags) and a view of its entries, checked to fit. */
function table(payload: Uint8Array, headerBytes: number, entryBytes: number, what: string) {
  if (payload.byteLength < headerBytes) throw unreadable(`the ${what} table is too small`);
  const data = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const count = data.getUint32(headerBytes - 4);
  if (count * entryBytes > payload.byteLength - headerBytes) throw unreadable(`the ${what} table is cut off`);
  return { data, count, at: (i: number) => headerBytes + i * entryBytes };
}

/**
 * Where a track's samples lie, chunk by chunk ([start, end) per chunk): from its
 * chunk offsets (stco/co64), samples per chunk (stsc) and sample sizes (stsz). The
 * work is bounded by the tables' lengths, never by a count the file merely claims.
 */
function trackChunkRanges(track: TrackTables): [number, number][] {
  if (track.stz2) throw metadataKept("a location track uses compact sample sizes");
  if (!track.stsz || !track.stsc || !(track.stco || track.co64)) {
    throw unreadable("a metadata track has no sample tables");
  }
  const stsz = new DataView(track.stsz.buffer, track.stsz.byteOffset, track.stsz.byteLength);
  if (track.stsz.byteLength < 12) throw unreadable("the sample size table is too small");
  const fixedSize = stsz.getUint32(4);
  const sampleCount = stsz.getUint32(8);
  if (fixedSize === 0 && sampleCount * 4 > track.stsz.byteLength - 12)
    throw unreadable("the sample size table is cut off");
  const sizeOf = (i: number) => (fixedSize !== 0 ? fixedSize : stsz.getUint32(12 + i * 4));

  const stsc = table(track.stsc, 8, 12, "sample-to-chunk");
  const offsets = track.co64
    ? table(track.co64, 8, 8, "chunk offset")
    : table(track.stco ?? new Uint8Array(), 8, 4, "chunk offset");
  const chunkOffset = (i: number) =>
    track.co64 ? Number(offsets.data.getBigUint64(offsets.at(i))) : offsets.data.getUint32(offsets.at(i));

  const ranges: [number, number][] = [];
  if (sampleCount === 0) return ranges;
  // stsc entries give the samples per chunk from their first chunk (1-based) onwards.
  if (stsc.count === 0 || stsc.data.getUint32(stsc.at(0)) !== 1) {
    throw unreadable("the sample-to-chunk table is malformed");
  }
  let sample = 0;
  let entry = 0;
  for (let chunk = 0; chunk < offsets.count && sample < sampleCount; chunk++) {
    while (entry + 1 < stsc.count && stsc.data.getUint32(stsc.at(entry + 1)) <= chunk + 1) entry++;
    const perChunk = Math.min(stsc.data.getUint32(stsc.at(entry) + 4), sampleCount - sample);
    let length = 0;
    if (fixedSize !== 0) {
      length = perChunk * fixedSize;
    } else {
      for (let i = 0; i < perChunk; i++) length += sizeOf(sample + i);
    }
    sample += perChunk;
    const start = chunkOffset(chunk);
    if (length > 0) ranges.push([start, start + length]);
  }
  return ranges;
}

async function planIsoMedia(file: Blob): Promise<ByteEdit[]> {
  const reader = new WindowReader(file);
  const budget = new Budget();
  const edits: ByteEdit[] = [];
  const mediaData: [number, number][] = [];
  let moov: Box | null = null;
  let offset = 0;
  while (offset < file.size) {
    if (file.size - offset < 8) {
      // Too short to be a box: stray bytes at the end, zeroed.
      edits.push({ start: offset, end: file.size });
      break;
    }
    budget.count();
    const head = await reader.read(offset, Math.min(16, file.size - offset));
    const box = readBox(head, 0, offset, file.size, true);
    if (box.type === "moov") {
      if (moov) throw unreadable("it has two movie headers");
      moov = box;
    } else if (box.type === "mdat") {
      mediaData.push([box.start + box.headerLength, box.end]);
    } else if (PADDING.has(box.type)) {
      zeroPayload(box, edits);
    } else if (!KEPT_TOP_LEVEL.has(box.type)) {
      neutraliseBox(box, edits);
    }
    offset = box.end;
  }
  if (!moov) throw unreadable("it has no movie header");
  if (moov.end - moov.start > MAX_MOVIE_HEADER_BYTES) throw unreadable("its movie header is too large");

  const view = new Uint8Array(await file.slice(moov.start, moov.end).arrayBuffer());
  const walk = walkMovie(view, moov, budget);
  edits.push(...walk.edits);
  for (const track of walk.tracks) {
    if (!isMetadataTrack(track)) continue;
    // A fragmented file keeps a track's samples in its fragments, which this does not rewrite.
    if (walk.fragmented) throw metadataKept("a metadata track is split into fragments");
    for (const [start, end] of trackChunkRanges(track)) {
      const inMediaData = mediaData.some(([from, to]) => start >= from && end <= to);
      if (!inMediaData) throw unreadable("a metadata track points outside the media data");
      edits.push({ start, end });
    }
  }
  return edits;
}

// ---------------------------------------------------------------------------
// AVI (RIFF; OpenDML AVI 2.0 adds `RIFF AVIX` parts and `indx` / `ix##` indexes).

type RiffLevel = "avi" | "avix" | "hdrl" | "strl" | "movi";
type RiffAction = "keep" | "zero" | "junk" | { descend: RiffLevel };

const JUNK = ascii("JUNK");

/** What to do with a chunk (or LIST, by its list type) at each level; everything not named is metadata. */
function riffAction(level: RiffLevel, id: string, listType: string | null): RiffAction {
  if (id === "JUNK") return "zero";
  switch (level) {
    case "avi":
      if (listType === "hdrl") return { descend: "hdrl" };
      if (listType === "movi") return { descend: "movi" };
      return id === "idx1" ? "keep" : "junk";
    case "avix":
      return listType === "movi" ? { descend: "movi" } : "junk";
    case "hdrl":
      if (listType === "strl") return { descend: "strl" };
      // OpenDML's header (total frames) is part of the format.
      if (listType === "odml" || id === "avih") return "keep";
      return "junk";
    case "strl":
      // Stream header, format, OpenDML index, video properties. 'strd' and 'strn' (camera data, names) go.
      return ["strh", "strf", "indx", "vprp"].includes(id) ? "keep" : "junk";
    case "movi":
      if (listType === "rec ") return { descend: "movi" };
      if (/^\d\d(dc|db|wb|pc)$/.test(id) || /^ix\d\d$/.test(id)) return "keep";
      // Another stream's data (subtitles, a GPS stream): its place is kept, its content zeroed.
      if (/^\d\d/.test(id)) return "zero";
      return "junk";
  }
}

async function walkRiff(
  reader: WindowReader,
  from: number,
  to: number,
  level: RiffLevel,
  depth: number,
  budget: Budget,
  edits: ByteEdit[],
): Promise<void> {
  if (depth > MAX_DEPTH) throw unreadable("lists are nested too deep");
  let offset = from;
  while (offset < to) {
    if (to - offset < 8) {
      // Padding too short for a chunk, zeroed.
      edits.push({ start: offset, end: to });
      return;
    }
    budget.count();
    const head = await reader.read(offset, 12 <= to - offset ? 12 : 8);
    const id = fourCC(head, 0);
    const size = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(4, true);
    const dataStart = offset + 8;
    const dataEnd = dataStart + size;
    if (dataEnd > to) throw unreadable(`chunk '${id}' runs past its list`);
    const listType = id === "LIST" ? (size >= 4 && head.byteLength >= 12 ? fourCC(head, 8) : null) : null;
    if (id === "LIST" && listType === null) throw unreadable("a list has no type");
    const action = riffAction(level, id, listType);
    if (action === "zero") {
      if (size > 0) edits.push({ start: dataStart + (listType ? 4 : 0), end: dataEnd });
    } else if (action === "junk") {
      edits.push({ start: offset, end: offset + 4, bytes: JUNK });
      if (size > 0) edits.push({ start: dataStart, end: dataEnd });
    } else if (action !== "keep") {
      await walkRiff(reader, dataStart + 4, dataEnd, action.descend, depth + 1, budget, edits);
    }
    // Chunks are padded to an even length.
    offset = Math.min(to, dataEnd + (size & 1));
  }
}

async function planAvi(file: Blob): Promise<ByteEdit[]> {
  const reader = new WindowReader(file);
  const budget = new Budget();
  const edits: ByteEdit[] = [];
  let offset = 0;
  let parts = 0;
  while (offset < file.size) {
    const head = file.size - offset >= 12 ? await reader.read(offset, 12) : null;
    if (!head || fourCC(head, 0) !== "RIFF") {
      if (parts === 0) throw unreadable("it is not a RIFF file");
      // Bytes after the last RIFF part belong to no chunk: zeroed.
      edits.push({ start: offset, end: file.size });
      break;
    }
    const size = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(4, true);
    const form = fourCC(head, 8);
    const end = offset + 8 + size;
    if (size < 4 || end > file.size) throw unreadable("a RIFF part runs past the end");
    if (form !== (parts === 0 ? "AVI " : "AVIX")) throw unreadable(`unexpected RIFF part '${form}'`);
    await walkRiff(reader, offset + 12, end, parts === 0 ? "avi" : "avix", 1, budget, edits);
    parts++;
    offset = Math.min(file.size, end + (size & 1));
  }
  return edits;
}

// ---------------------------------------------------------------------------

/**
 * The edits that remove `file`'s metadata. Throws VideoError 'unreadable' for a
 * file that does not parse within the bounds, 'metadata-kept' for one whose
 * metadata cannot be removed this way.
 */
export async function planVideoMetadataRemoval(file: Blob, container: VideoContainer): Promise<ByteEdit[]> {
  const edits = container === "avi" ? await planAvi(file) : await planIsoMedia(file);
  return edits.sort((a, b) => a.start - b.start);
}

/** `source` with `edits` applied as it streams: one chunk in memory at a time, the source's bytes never changed. */
export function applyByteEdits(
  source: ReadableStream<Uint8Array>,
  edits: readonly ByteEdit[],
): ReadableStream<Uint8Array> {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let position = 0;
  let first = 0;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const end = position + chunk.byteLength;
        while (first < sorted.length && (sorted[first]?.end ?? 0) <= position) first++;
        let out = chunk;
        for (let i = first; i < sorted.length; i++) {
          const edit = sorted[i];
          if (!edit || edit.start >= end) break;
          const from = Math.max(edit.start, position);
          const to = Math.min(edit.end, end);
          if (to <= from) continue;
          if (out === chunk) out = new Uint8Array(chunk);
          if (edit.bytes) out.set(edit.bytes.subarray(from - edit.start, to - edit.start), from - position);
          else out.fill(0, from - position, to - position);
        }
        position = end;
        controller.enqueue(out);
      },
    }),
  );
}

/** The video as it will be stored: metadata removed, streamed from `file`. */
export async function videoWithoutMetadata(
  file: Blob,
  container: VideoContainer,
): Promise<ReadableStream<Uint8Array>> {
  const edits = await planVideoMetadataRemoval(file, container);
  return applyByteEdits(file.stream(), edits);
}

/** SHA-256 of a file, read as a stream (a video is never held whole). */
export async function hashFile(file: Blob): Promise<string> {
  const hash = createHash("sha256");
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.digest("hex");
}
