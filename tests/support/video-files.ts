// Small synthetic video files for tests (decision 0121): MP4 / QuickTime boxes and AVI
// chunks written by hand, carrying the metadata phones and cameras write, where they write it.

const enc = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

// ---------------------------------------------------------------------------
// ISO base media (MP4, QuickTime).

/** A box: 32-bit size, type, content. */
export function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content);
  return concat([u32(8 + body.byteLength), enc(type), body]);
}

/** A box with a 64-bit size (size field 1). */
export function largeBox(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content);
  return concat([u32(1), enc(type), u64(16 + body.byteLength), body]);
}

/** A FullBox: version 0, flags 0, then content. */
export function fullBox(type: string, ...content: Uint8Array[]): Uint8Array {
  return box(type, new Uint8Array(4), ...content);
}

export function ftyp(brand: "isom" | "qt  "): Uint8Array {
  return box("ftyp", enc(brand), u32(0x200), enc(brand), enc(brand === "isom" ? "iso2" : "qt  "));
}

/** The QuickTime location a phone writes (ISO 6709). */
export const LOCATION = "+40.6892-074.0445+010.000/";
/** Apple's key for it, in the `moov/meta` keys box. */
export const APPLE_LOCATION_KEY = "com.apple.quicktime.location.ISO6709";
/** What a GPS track's samples say (GoPro's GPMF carries coordinates like these). */
export const GPS_SAMPLE = "GPS5 lat=40.68920 lon=-74.04450";
/** XMP in a top-level uuid box, as Adobe and some cameras write it. */
export const XMP_LOCATION = "<exif:GPSLatitude>40,41.352N</exif:GPSLatitude>";
const XMP_UUID = new Uint8Array([
  0xbe, 0x7a, 0xcf, 0xcb, 0x97, 0xa9, 0x42, 0xe8, 0x9c, 0x71, 0x99, 0x94, 0x91, 0xe3, 0xaf, 0xac,
]);

function handler(type: string): Uint8Array {
  return fullBox("hdlr", u32(0), enc(type), new Uint8Array(12), enc("handler\0"));
}

/** A track: its handler, one sample format, and sample tables placing `samples` at `offsets` (one per chunk). */
function track(options: {
  handlerType: string;
  format: string;
  sampleSizes: number[];
  offsets: number[];
  co64: boolean;
  udta?: Uint8Array;
}): Uint8Array {
  const entry = box(options.format, new Uint8Array(6), new Uint8Array([0, 1]), new Uint8Array(16));
  const stsd = fullBox("stsd", u32(1), entry);
  const stts = fullBox("stts", u32(1), u32(options.sampleSizes.length), u32(1000));
  const stsc = fullBox("stsc", u32(1), u32(1), u32(1), u32(1));
  const stsz = fullBox("stsz", u32(0), u32(options.sampleSizes.length), ...options.sampleSizes.map(u32));
  const chunkOffsets = options.co64
    ? fullBox("co64", u32(options.offsets.length), ...options.offsets.map(u64))
    : fullBox("stco", u32(options.offsets.length), ...options.offsets.map(u32));
  const stbl = box("stbl", stsd, stts, stsc, stsz, chunkOffsets);
  const minf = box("minf", box("dinf", fullBox("dref", u32(0))), stbl);
  const mdia = box("mdia", fullBox("mdhd", new Uint8Array(20)), handler(options.handlerType), minf);
  return box("trak", fullBox("tkhd", new Uint8Array(80)), mdia, ...(options.udta ? [options.udta] : []));
}

export interface TestMovie {
  bytes: Uint8Array;
  /** Where each video sample lies, and its bytes. */
  videoSamples: { offset: number; bytes: Uint8Array }[];
  /** Where the GPS track's samples lie. */
  gpsSamples: { offset: number; length: number }[];
  /** The media data box's content range. */
  mediaData: { start: number; end: number };
}

/**
 * A movie as a phone (and a GoPro) would write it: ©xyz in moov/udta and in a
 * track's udta, Apple's location key in moov/meta, XMP in a top-level uuid box, a
 * timed GPS track ('meta' handler, 'gpmd' samples) in the media data, stale bytes
 * in a free box. `qt` writes a QuickTime file with a 64-bit mdat and co64 offsets.
 */
export function testMovie(options: { qt?: boolean } = {}): TestMovie {
  const qt = options.qt ?? false;
  const videoSamples = [
    new Uint8Array(300).map((_, i) => (i * 7 + 1) % 256),
    new Uint8Array(200).map((_, i) => (i * 13 + 5) % 256),
  ];
  const gps = enc(GPS_SAMPLE);
  const userData = box(
    "udta",
    box("\u00a9xyz", u32((LOCATION.length << 16) | 0x15c7), enc(LOCATION)),
    box("\u00a9mak", enc("Apple")),
  );
  const appleMeta = box(
    "meta",
    handler("mdta"),
    box("keys", u32(0), u32(1), box("mdta", enc(APPLE_LOCATION_KEY))),
    box("ilst", box("\0\0\0\u0001", box("data", u32(1), u32(0), enc(LOCATION)))),
  );
  const moovWith = (videoOffsets: number[], gpsOffsets: number[]) =>
    box(
      "moov",
      fullBox("mvhd", new Uint8Array(96)),
      track({
        handlerType: "vide",
        format: "avc1",
        sampleSizes: videoSamples.map((s) => s.byteLength),
        offsets: videoOffsets,
        co64: qt,
        udta: box("udta", box("\u00a9xyz", enc(LOCATION))),
      }),
      track({
        handlerType: "meta",
        format: "gpmd",
        sampleSizes: [gps.byteLength, gps.byteLength],
        offsets: gpsOffsets,
        co64: qt,
      }),
      userData,
      appleMeta,
    );
  const head = concat([
    ftyp(qt ? "qt  " : "isom"),
    box("free", enc("stale encoder notes")),
    box("uuid", XMP_UUID, enc(XMP_LOCATION)),
  ]);
  // The offsets do not change the header's size: lay it out once, then fill them in.
  const moovSize = moovWith([0, 0], [0, 0]).byteLength;
  const mdatHeader = qt ? 16 : 8;
  const dataStart = head.byteLength + moovSize + mdatHeader;
  const layout = [videoSamples[0], gps, videoSamples[1], gps] as Uint8Array[];
  const offsets: number[] = [];
  let at = dataStart;
  for (const part of layout) {
    offsets.push(at);
    at += part.byteLength;
  }
  const moov = moovWith([offsets[0] ?? 0, offsets[2] ?? 0], [offsets[1] ?? 0, offsets[3] ?? 0]);
  const mdat = qt ? largeBox("mdat", ...layout) : box("mdat", ...layout);
  const bytes = concat([head, moov, mdat]);
  return {
    bytes,
    videoSamples: [
      { offset: offsets[0] ?? 0, bytes: videoSamples[0] ?? new Uint8Array() },
      { offset: offsets[2] ?? 0, bytes: videoSamples[1] ?? new Uint8Array() },
    ],
    gpsSamples: [
      { offset: offsets[1] ?? 0, length: gps.byteLength },
      { offset: offsets[3] ?? 0, length: gps.byteLength },
    ],
    mediaData: { start: dataStart, end: bytes.byteLength },
  };
}

/** The smallest movie that parses: a file type, a movie header, media data. */
export function minimalMovie(payloadBytes = 2048): Uint8Array {
  return concat([
    ftyp("isom"),
    box("moov", fullBox("mvhd", new Uint8Array(96))),
    box("mdat", new Uint8Array(payloadBytes)),
  ]);
}

export interface ParsedBox {
  type: string;
  start: number;
  end: number;
  children?: ParsedBox[];
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "udta"]);

/** The box tree of a file, as a reader of the format sees it (for assertions). */
export function parseBoxes(bytes: Uint8Array, start = 0, end = bytes.byteLength): ParsedBox[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: ParsedBox[] = [];
  let offset = start;
  while (offset < end) {
    let size = view.getUint32(offset);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    }
    const type = Buffer.from(bytes.subarray(offset + 4, offset + 8)).toString("latin1");
    const parsed: ParsedBox = { type, start: offset, end: offset + size };
    if (CONTAINERS.has(type)) parsed.children = parseBoxes(bytes, offset + header, offset + size);
    boxes.push(parsed);
    offset += size;
  }
  return boxes;
}

/** The chunk offsets of a stbl's stco or co64 box. */
export function chunkOffsets(bytes: Uint8Array, stbl: ParsedBox): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const table = stbl.children?.find((child) => child.type === "stco" || child.type === "co64");
  if (!table) return [];
  const count = view.getUint32(table.start + 12);
  return Array.from({ length: count }, (_, i) =>
    table.type === "co64"
      ? Number(view.getBigUint64(table.start + 16 + i * 8))
      : view.getUint32(table.start + 16 + i * 4),
  );
}

// ---------------------------------------------------------------------------
// AVI (RIFF, little-endian sizes, chunks padded to even lengths).

function u32le(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

export function chunk(id: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content);
  const pad = body.byteLength % 2 === 1 ? [new Uint8Array(1)] : [];
  return concat([enc(id), u32le(body.byteLength), body, ...pad]);
}

export function list(type: string, ...chunks: Uint8Array[]): Uint8Array {
  return chunk("LIST", enc(type), ...chunks);
}

export const AVI_TITLE = "Our flat at 12 Elm Street";
export const AVI_CAMERA_DATA = "EXIF GPS 40.6892N 74.0445W";

export interface TestAvi {
  bytes: Uint8Array;
  frames: { offset: number; bytes: Uint8Array }[];
}

/**
 * An AVI as a camera writes it: EXIF with GPS in 'strd', the shooting date
 * ('IDIT'), a LIST INFO (title, date), JUNK with stale bytes, a subtitle-like
 * text stream and a vendor chunk in the movie data, and an idx1 index.
 */
export function testAvi(): TestAvi {
  const frames = [
    new Uint8Array(333).map((_, i) => (i * 3 + 2) % 256),
    new Uint8Array(128).map((_, i) => (i * 11 + 9) % 256),
  ];
  const audio = new Uint8Array(64).fill(0x55);
  const hdrl = list(
    "hdrl",
    chunk("avih", new Uint8Array(56)),
    list(
      "strl",
      chunk("strh", enc("vids"), new Uint8Array(52)),
      chunk("strf", new Uint8Array(40)),
      chunk("strd", enc(AVI_CAMERA_DATA)),
    ),
    list("strl", chunk("strh", enc("auds"), new Uint8Array(52)), chunk("strf", new Uint8Array(18))),
    chunk("IDIT", enc("MON JUN 03 14:12:09 2024\n\0")),
  );
  const info = list("INFO", chunk("INAM", enc(`${AVI_TITLE}\0`)), chunk("ICRD", enc("2024-06-03\0")));
  const junk = chunk("JUNK", enc("stale bytes from the camera"));
  const movi = list(
    "movi",
    chunk("00dc", frames[0] ?? new Uint8Array()),
    chunk("01wb", audio),
    chunk("02tx", enc(AVI_CAMERA_DATA)),
    chunk("00dc", frames[1] ?? new Uint8Array()),
    chunk("gps0", enc(AVI_CAMERA_DATA)),
  );
  const idx1 = chunk("idx1", new Uint8Array(32));
  const body = concat([enc("AVI "), hdrl, info, junk, movi, idx1]);
  const bytes = concat([enc("RIFF"), u32le(body.byteLength), body]);
  // Where the frames' bytes lie: after each '00dc' header.
  const frameOffsets: number[] = [];
  const haystack = Buffer.from(bytes);
  let from = 0;
  for (;;) {
    const at = haystack.indexOf("00dc", from, "latin1");
    if (at === -1) break;
    frameOffsets.push(at + 8);
    from = at + 4;
  }
  return {
    bytes,
    frames: frames.map((frame, i) => ({ offset: frameOffsets[i] ?? -1, bytes: frame })),
  };
}
