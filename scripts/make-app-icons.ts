/**
 * Decision 0253: the installable app's icons, one set per campus, drawn from the
 * campus's logo (public/logos/{id}.svg) at the sizes browsers ask of a manifest (192 and 512 px,
 * PNG). Run after changing a logo: `npx tsx scripts/make-app-icons.ts`; the PNGs are committed.
 */
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const logos = path.resolve("public/logos");
const icons = path.resolve("public/icons");
mkdirSync(icons, { recursive: true });
for (const file of readdirSync(logos).filter((name) => name.endsWith(".svg"))) {
  const id = file.replace(/\.svg$/, "");
  for (const size of [192, 512]) {
    await sharp(path.join(logos, file), { density: (72 * size) / 64 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(path.join(icons, `${id}-${size}.png`));
  }
}
