import { writeFile } from "node:fs/promises";
import sharp from "sharp";

/** Writes a one-colour PNG of the given size to `path` (an upload for a profile picture or a post). */
export async function writePhoto(
  path: string,
  color: { r: number; g: number; b: number },
  width = 900,
  height = 600,
): Promise<string> {
  await writeFile(
    path,
    await sharp({ create: { width, height, channels: 3, background: color } })
      .png()
      .toBuffer(),
  );
  return path;
}
