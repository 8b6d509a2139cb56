import { describe, expect, it } from "vitest";
import {
  APPLE_LOCATION_KEY,
  AVI_CAMERA_DATA,
  AVI_TITLE,
  box,
  chunk,
  chunkOffsets,
  ftyp,
  fullBox,
  GPS_SAMPLE,
  LOCATION,
  list,
  minimalMovie,
  type ParsedBox,
  parseBoxes,
  testAvi,
  testMovie,
  XMP_LOCATION,
} from "../../tests/support/video-files";
import { sniffMediaType } from "./media-type";
import { applyByteEdits, planVideoMetadataRemoval, videoWithoutMetadata } from "./video";
import { MAX_VIDEO_BOXES, type VideoContainer } from "./video-reader";

// Decision 0121: videos lose their metadata (where they were filmed first of all), nothing else.

async function cleaned(bytes: Uint8Array, container: VideoContainer): Promise<Buffer> {
  const stream = await videoWithoutMetadata(new Blob([new Uint8Array(bytes)]), container);
  return Buffer.from(await new Response(stream).arrayBuffer());
}

function types(boxes: readonly ParsedBox[] | undefined): string[] {
  return (boxes ?? []).map((b) => b.type);
}

function child(parent: ParsedBox | undefined, type: string, index = 0): ParsedBox | undefined {
  return parent?.children?.filter((b) => b.type === type)[index];
}

/** `count` empty 'free' boxes, written straight into one buffer. */
function manyFreeBoxes(count: number): Uint8Array {
  const out = Buffer.alloc(count * 8);
  for (let i = 0; i < count; i++) {
    out.writeUInt32BE(8, i * 8);
    out.write("free", i * 8 + 4, "latin1");
  }
  return new Uint8Array(out);
}

const SECRETS = [
  LOCATION,
  "+40.6892",
  APPLE_LOCATION_KEY,
  GPS_SAMPLE,
  XMP_LOCATION,
  "stale encoder notes",
  "Apple",
];

describe("videoWithoutMetadata: MP4 and QuickTime", () => {
  for (const qt of [false, true]) {
    const name = qt ? "QuickTime (.mov, 64-bit sizes and offsets)" : "MP4";
    it(`${name}: no location is left, and the movie is the same movie`, async () => {
      const movie = testMovie({ qt });
      const original = Buffer.from(movie.bytes);
      for (const secret of SECRETS) expect(original.includes(secret, 0, "latin1"), secret).toBe(true);
      expect(await sniffMediaType(movie.bytes)).toBe(qt ? "mov" : "mp4");

      const out = await cleaned(movie.bytes, qt ? "mov" : "mp4");
      for (const secret of SECRETS) expect(out.includes(secret, 0, "latin1"), secret).toBe(false);

      // Nothing moved: the same length, the same media data except the GPS samples, now zeros.
      expect(out.byteLength).toBe(original.byteLength);
      for (const sample of movie.videoSamples) {
        expect(
          out.subarray(sample.offset, sample.offset + sample.bytes.byteLength).equals(sample.bytes),
        ).toBe(true);
      }
      for (const gps of movie.gpsSamples) {
        expect(out.subarray(gps.offset, gps.offset + gps.length).every((byte) => byte === 0)).toBe(true);
      }
      const outside = (from: number, to: number) =>
        out.subarray(from, to).equals(original.subarray(from, to));
      const [firstGps, secondGps] = movie.gpsSamples;
      if (!firstGps || !secondGps) throw new Error("no GPS samples");
      expect(outside(movie.mediaData.start, firstGps.offset)).toBe(true);
      expect(outside(firstGps.offset + firstGps.length, secondGps.offset)).toBe(true);

      // The box tree: metadata boxes are now free space of the same size; the rest is as it was.
      const before = parseBoxes(movie.bytes);
      const after = parseBoxes(out);
      expect(types(before)).toEqual(["ftyp", "free", "uuid", "moov", "mdat"]);
      expect(types(after)).toEqual(["ftyp", "free", "free", "moov", "mdat"]);
      expect(after.map((b) => [b.start, b.end])).toEqual(before.map((b) => [b.start, b.end]));
      const moov = after.find((b) => b.type === "moov");
      expect(types(moov?.children)).toEqual(["mvhd", "trak", "trak", "free", "free"]);
      expect(types(child(moov, "trak")?.children)).toEqual(["tkhd", "mdia", "free"]);
      // The sample tables are untouched: the chunk offsets still lead to the video's samples.
      const stbl = child(child(child(child(moov, "trak"), "mdia"), "minf"), "stbl");
      expect(chunkOffsets(out, stbl ?? { type: "", start: 0, end: 0 })).toEqual(
        movie.videoSamples.map((sample) => sample.offset),
      );
      const stblBefore = child(
        child(
          child(
            child(
              before.find((b) => b.type === "moov"),
              "trak",
            ),
            "mdia",
          ),
          "minf",
        ),
        "stbl",
      );
      const tables = (buffer: Uint8Array, table: ParsedBox | undefined) =>
        Buffer.from(buffer.subarray(table?.start ?? 0, table?.end ?? 0));
      expect(tables(out, stbl).equals(tables(movie.bytes, stblBefore))).toBe(true);
      // Still the same kind of file.
      expect(await sniffMediaType(out)).toBe(qt ? "mov" : "mp4");
    });
  }

  it("leaves a movie without metadata byte for byte as it was", async () => {
    const movie = minimalMovie(5000);
    expect((await cleaned(movie, "mp4")).equals(Buffer.from(movie))).toBe(true);
  });

  it("refuses files that do not parse, or parse beyond the bounds", async () => {
    const header = (size: number, type: string) => {
      const out = Buffer.alloc(8);
      out.writeUInt32BE(size);
      out.write(type, 4, "latin1");
      return new Uint8Array(out);
    };
    const mvhd = fullBox("mvhd", new Uint8Array(96));
    const cases: [string, Uint8Array][] = [
      ["no movie header", new Uint8Array(Buffer.concat([ftyp("isom"), box("mdat", new Uint8Array(64))]))],
      ["a box past the end", new Uint8Array(Buffer.concat([ftyp("isom"), header(5000, "moov"), mvhd]))],
      [
        "a box smaller than its header",
        new Uint8Array(Buffer.concat([ftyp("isom"), header(4, "moov"), mvhd])),
      ],
      [
        "a child past its parent",
        new Uint8Array(Buffer.concat([ftyp("isom"), box("moov", header(500, "trak"), new Uint8Array(16))])),
      ],
      [
        "two movie headers",
        new Uint8Array(Buffer.concat([ftyp("isom"), box("moov", mvhd), box("moov", mvhd)])),
      ],
      [
        "tracks nested too deep",
        new Uint8Array(
          Buffer.concat([
            ftyp("isom"),
            Array.from({ length: 12 }).reduce<Uint8Array>((inner) => box("trak", inner), mvhd),
          ]),
        ),
      ],
      [
        "too many boxes",
        new Uint8Array(Buffer.concat([ftyp("isom"), box("moov", manyFreeBoxes(MAX_VIDEO_BOXES + 1))])),
      ],
      [
        "a GPS track pointing outside the media data",
        (() => {
          const movie = testMovie();
          const bytes = Buffer.from(movie.bytes);
          // Its first chunk offset (the GPS track is the second trak's stco) now points at the file type box.
          const moov = parseBoxes(bytes).find((b) => b.type === "moov");
          const stbl = child(child(child(child(moov, "trak", 1), "mdia"), "minf"), "stbl");
          const stco = stbl?.children?.find((b) => b.type === "stco");
          bytes.writeUInt32BE(0, (stco?.start ?? 0) + 16);
          return new Uint8Array(bytes);
        })(),
      ],
    ];
    for (const [reason, bytes] of cases) {
      await expect(
        planVideoMetadataRemoval(new Blob([new Uint8Array(bytes)]), "mp4"),
        reason,
      ).rejects.toMatchObject({
        name: "VideoError",
        code: "unreadable",
      });
    }
  });

  it("refuses what it cannot clean: a compressed movie header, a location track in fragments", async () => {
    const compressed = Buffer.concat([
      ftyp("qt  "),
      box("moov", box("cmov", new Uint8Array(40))),
      box("mdat"),
    ]);
    await expect(planVideoMetadataRemoval(new Blob([compressed]), "mov")).rejects.toMatchObject({
      code: "metadata-kept",
    });
    const movie = Buffer.from(testMovie().bytes);
    const moov = parseBoxes(movie).find((b) => b.type === "moov");
    // Declares fragments: rename the movie's last box (its Apple meta) to 'mvex'.
    const last = moov?.children?.at(-1);
    movie.write("mvex", (last?.start ?? 0) + 4, "latin1");
    await expect(planVideoMetadataRemoval(new Blob([movie]), "mp4")).rejects.toMatchObject({
      code: "metadata-kept",
    });
  });
});

describe("videoWithoutMetadata: AVI", () => {
  it("turns metadata chunks into JUNK of the same size, leaving the frames and sound where they were", async () => {
    const avi = testAvi();
    const original = Buffer.from(avi.bytes);
    for (const secret of [AVI_TITLE, AVI_CAMERA_DATA, "stale bytes", "2024"]) {
      expect(original.includes(secret, 0, "latin1"), secret).toBe(true);
    }
    expect(await sniffMediaType(avi.bytes)).toBe("avi");
    const out = await cleaned(avi.bytes, "avi");
    for (const secret of [AVI_TITLE, AVI_CAMERA_DATA, "stale bytes", "2024"]) {
      expect(out.includes(secret, 0, "latin1"), secret).toBe(false);
    }
    expect(out.byteLength).toBe(original.byteLength);
    for (const frame of avi.frames) {
      expect(out.subarray(frame.offset - 8, frame.offset - 4).toString("latin1")).toBe("00dc");
      expect(out.subarray(frame.offset, frame.offset + frame.bytes.byteLength).equals(frame.bytes)).toBe(
        true,
      );
    }
    expect(out.includes("01wb", 0, "latin1") && out.includes(Buffer.alloc(64, 0x55))).toBe(true);
    // The headers a player needs are still there; the camera's are not.
    for (const kept of ["avih", "strh", "strf", "idx1", "hdrl", "movi"]) {
      expect(out.includes(kept, 0, "latin1"), kept).toBe(true);
    }
    for (const gone of ["strd", "IDIT", "INFO", "INAM", "gps0"]) {
      expect(out.includes(gone, 0, "latin1"), gone).toBe(false);
    }
    expect(await sniffMediaType(out)).toBe("avi");
  });

  it("refuses what is not a whole AVI", async () => {
    const avi = Buffer.from(testAvi().bytes);
    const cases: [string, Buffer][] = [
      [
        "a RIFF size past the end",
        Buffer.concat([avi.subarray(0, 4), Buffer.from([0xff, 0xff, 0xff, 0x00]), avi.subarray(8)]),
      ],
      ["not AVI", Buffer.concat([avi.subarray(0, 8), Buffer.from("WAVE"), avi.subarray(12)])],
      [
        "a chunk past its list",
        (() => {
          const copy = Buffer.from(avi);
          copy.writeUInt32LE(100_000, copy.indexOf("avih") + 4);
          return copy;
        })(),
      ],
      [
        "lists nested too deep",
        (() => {
          const deep = Array.from({ length: 12 }).reduce<Uint8Array>(
            (inner) => list("rec ", inner),
            chunk("00dc"),
          );
          const body = Buffer.concat([Buffer.from("AVI "), list("movi", deep)]);
          const size = Buffer.alloc(4);
          size.writeUInt32LE(body.byteLength);
          return Buffer.concat([Buffer.from("RIFF"), size, body]);
        })(),
      ],
    ];
    for (const [reason, bytes] of cases) {
      await expect(
        planVideoMetadataRemoval(new Blob([new Uint8Array(bytes)]), "avi"),
        reason,
      ).rejects.toMatchObject({
        code: "unreadable",
      });
    }
  });
});

describe("applyByteEdits", () => {
  it("applies edits across chunk borders without changing the source's bytes", async () => {
    const source = new Uint8Array(100).map((_, i) => i + 1);
    const copy = new Uint8Array(source);
    const chunks = [source.subarray(0, 7), source.subarray(7, 50), source.subarray(50)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of chunks) controller.enqueue(part);
        controller.close();
      },
    });
    const edited = applyByteEdits(stream, [
      { start: 5, end: 9, bytes: new Uint8Array([0xaa, 0xbb, 0xcc, 0xdd]) },
      { start: 40, end: 60 },
      { start: 99, end: 100 },
    ]);
    const out = new Uint8Array(await new Response(edited).arrayBuffer());
    const expected = new Uint8Array(copy);
    expected.set([0xaa, 0xbb, 0xcc, 0xdd], 5);
    expected.fill(0, 40, 60);
    expected[99] = 0;
    expect(out).toEqual(expected);
    expect(source).toEqual(copy);
  });
});
