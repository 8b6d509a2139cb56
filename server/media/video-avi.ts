import { ascii, Budget, type ByteEdit, fourCC, MAX_DEPTH, unreadable, WindowReader } from "./video-reader";

// AVI (RIFF; OpenDML AVI 2.0 adds `RIFF AVIX` parts and `indx` / `ix##` indexes): the edits that
// turn metadata chunks into `JUNK` of the same size (video.ts).

type RiffLevel = "avi" | "avix" | "hdrl" | "strl" | "movi";
type RiffAction = "keep" | "zero" | "junk" | { descend: RiffLevel };

export const JUNK = ascii("JUNK");

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

export async function planAvi(file: Blob): Promise<ByteEdit[]> {
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
