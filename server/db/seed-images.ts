import sharp from "sharp";

/**
 * The demo seed's pictures (decision 0450): drawn here as SVG and rendered by sharp,
 * never downloaded, so the repository carries no photographs and the seed needs no network.
 * Each is handed to the same pipeline as an upload (updateProfilePhoto, createPost), which
 * re-encodes it to the stored WebP sizes.
 */

/** The objects the seed can draw, one per demo listing. */
export type DemoDrawing =
  | "lamp"
  | "textbook"
  | "desk"
  | "calculator"
  | "bike"
  | "tickets"
  | "headphones"
  | "keyboard"
  | "fridge"
  | "rice-cooker"
  | "guitar"
  | "plant";

/** Drawn on a 1200 x 900 (4:3) canvas, as a phone takes a picture… */
const WIDTH = 1200;
const HEIGHT = 900;
/** …and rendered at the large stored width (POST_IMAGE_VARIANTS): no resize for it, the least work. */
const RENDER_WIDTH = 1080;
/** Where the table or floor meets the wall. */
const HORIZON = 610;
const FONT = "DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif";

interface Scene {
  /** Wall, top to bottom. */
  wall: [string, string];
  /** Table top or floor, back to front. */
  surface: [string, string];
  /** The object's shapes, drawn around x = 600 standing on y = HORIZON + 90. */
  object: string;
}

const SCENES: Record<DemoDrawing, Scene> = {
  lamp: {
    wall: ["#f4e7d3", "#e8d2b4"],
    surface: ["#9c6b43", "#7a4f2e"],
    object: `
      <circle cx="700" cy="330" r="230" fill="url(#glow)"/>
      <ellipse cx="560" cy="690" rx="120" ry="26" fill="#2d2a26"/>
      <rect x="440" y="650" width="240" height="40" rx="20" fill="#3a3631"/>
      <path d="M560 660 L500 420 L700 300" stroke="#3a3631" stroke-width="22" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
      <circle cx="500" cy="420" r="20" fill="#c9a45c"/>
      <circle cx="700" cy="300" r="18" fill="#c9a45c"/>
      <path d="M640 250 L820 250 L900 400 L570 400 Z" fill="url(#metal)" transform="rotate(14 735 325)"/>
      <ellipse cx="740" cy="410" rx="140" ry="22" fill="#fff6d8" transform="rotate(14 735 325)"/>`,
  },
  textbook: {
    wall: ["#dfe9f3", "#c7d6e6"],
    surface: ["#b98d5f", "#93683f"],
    object: `
      <rect x="330" y="610" width="560" height="70" rx="6" fill="#8a2b2b"/>
      <rect x="340" y="618" width="540" height="10" fill="#f3ede2"/>
      <rect x="360" y="560" width="500" height="54" rx="6" fill="#2b4f7a"/>
      <rect x="368" y="566" width="484" height="9" fill="#f3ede2"/>
      <g transform="rotate(-6 600 400)">
        <rect x="400" y="170" width="400" height="390" rx="10" fill="#1f6f8b"/>
        <rect x="400" y="170" width="34" height="390" rx="6" fill="#17566c"/>
        <path d="M470 470 C 540 300, 620 520, 760 250" stroke="#f6c453" stroke-width="10" fill="none"/>
        <path d="M470 490 L770 490 M470 490 L470 260" stroke="#e8f1f5" stroke-width="5"/>
        <text x="610" y="240" font-family="${FONT}" font-size="44" font-weight="bold" fill="#ffffff" text-anchor="middle">CALCULUS</text>
        <text x="610" y="535" font-family="${FONT}" font-size="24" fill="#d5e8ef" text-anchor="middle">8th edition</text>
      </g>`,
  },
  desk: {
    wall: ["#e7efe9", "#cfdcd3"],
    surface: ["#c9c2b8", "#aca398"],
    object: `
      <rect x="250" y="380" width="700" height="44" rx="8" fill="url(#oak)"/>
      <rect x="300" y="424" width="600" height="70" fill="#a8733f"/>
      <rect x="520" y="440" width="160" height="40" rx="6" fill="#8f5f31"/>
      <circle cx="600" cy="460" r="7" fill="#e0c08a"/>
      <path d="M300 494 L280 700 L306 700 L340 494 Z M900 494 L920 700 L894 700 L860 494 Z" fill="#8f5f31"/>
      <rect x="360" y="300" width="120" height="80" rx="6" fill="#e8e2d6"/>
      <path d="M760 380 L780 250 L840 250 L860 380 Z" fill="#5c7d6b"/>`,
  },
  calculator: {
    wall: ["#ece7f5", "#d6cfe8"],
    surface: ["#f1efe9", "#d9d5cb"],
    object: `
      <g transform="rotate(-8 600 420)">
        <rect x="470" y="150" width="260" height="520" rx="30" fill="#2f3542"/>
        <rect x="500" y="190" width="200" height="110" rx="10" fill="#b9c8a7"/>
        <path d="M515 270 C 560 200, 600 290, 685 215" stroke="#3f4a35" stroke-width="5" fill="none"/>
        ${keyGrid(505, 330, 4, 7, 42, 38, 8, "#57606f", "#f19066")}
      </g>`,
  },
  bike: {
    wall: ["#dcecf5", "#bcd8e8"],
    surface: ["#a5a8ab", "#85888b"],
    object: `
      <g stroke-linecap="round" stroke-linejoin="round" fill="none">
        <circle cx="370" cy="560" r="150" stroke="#222" stroke-width="22"/>
        <circle cx="830" cy="560" r="150" stroke="#222" stroke-width="22"/>
        <circle cx="370" cy="560" r="128" stroke="#c8ccd0" stroke-width="3"/>
        <circle cx="830" cy="560" r="128" stroke="#c8ccd0" stroke-width="3"/>
        <path d="M370 560 L540 560 L480 360 Z M540 560 L760 380 L480 360 M760 380 L830 560" stroke="#d7263d" stroke-width="20"/>
        <path d="M480 360 L460 310 M420 305 L510 305" stroke="#222" stroke-width="18"/>
        <path d="M760 380 L740 300 L800 280" stroke="#222" stroke-width="16"/>
        <circle cx="540" cy="560" r="30" stroke="#555" stroke-width="10"/>
      </g>`,
  },
  tickets: {
    wall: ["#fdf0e0", "#f6dcc0"],
    surface: ["#3f6f54", "#2f5641"],
    object: `
      ${ticket(-9, 330, 380, "#ffffff", "#bf1e2e")}
      ${ticket(7, 410, 480, "#fff8ec", "#841617")}`,
  },
  headphones: {
    wall: ["#e5e5ea", "#cfcfd6"],
    surface: ["#f4f1ec", "#dcd7cf"],
    object: `
      <g transform="translate(0 40)">
        <path d="M420 500 C 420 230, 780 230, 780 500" stroke="#1e1e24" stroke-width="34" fill="none" stroke-linecap="round"/>
        <path d="M430 470 C 440 280, 760 280, 770 470" stroke="#55555f" stroke-width="10" fill="none"/>
        <rect x="360" y="450" width="130" height="200" rx="60" fill="#2b2b33"/>
        <rect x="710" y="450" width="130" height="200" rx="60" fill="#2b2b33"/>
        <rect x="385" y="470" width="80" height="160" rx="40" fill="#44444e"/>
        <rect x="735" y="470" width="80" height="160" rx="40" fill="#44444e"/>
      </g>`,
  },
  keyboard: {
    wall: ["#e3ecf7", "#c6d5ea"],
    surface: ["#3b3f46", "#2a2d33"],
    object: `
      <g transform="rotate(-4 600 520)">
        <rect x="230" y="400" width="740" height="250" rx="22" fill="#d9dde3"/>
        ${keyGrid(255, 420, 14, 4, 44, 46, 6, "#f7f8fa", "#4b7bec")}
        <rect x="420" y="600" width="330" height="36" rx="8" fill="#f7f8fa"/>
      </g>`,
  },
  fridge: {
    wall: ["#eef3f6", "#d5e1e8"],
    surface: ["#b7a48e", "#98846d"],
    object: `
      <rect x="420" y="200" width="360" height="500" rx="26" fill="url(#metal)"/>
      <rect x="420" y="200" width="360" height="120" rx="26" fill="#dfe5ea"/>
      <path d="M420 320 L780 320" stroke="#9aa4ad" stroke-width="6"/>
      <rect x="730" y="360" width="16" height="140" rx="8" fill="#6b7680"/>
      <rect x="730" y="235" width="16" height="60" rx="8" fill="#6b7680"/>
      <rect x="450" y="690" width="40" height="20" fill="#333"/>
      <rect x="710" y="690" width="40" height="20" fill="#333"/>`,
  },
  "rice-cooker": {
    wall: ["#f7efe6", "#eadbc9"],
    surface: ["#e4e1dc", "#c9c4bc"],
    object: `
      <rect x="400" y="380" width="400" height="300" rx="90" fill="#fbfbfb"/>
      <path d="M410 420 C 430 290, 770 290, 790 420 Z" fill="#e9ecef"/>
      <rect x="560" y="300" width="80" height="26" rx="13" fill="#b0b7bf"/>
      <rect x="530" y="520" width="140" height="70" rx="16" fill="#37474f"/>
      <circle cx="565" cy="555" r="12" fill="#ff7043"/>
      <circle cx="635" cy="555" r="12" fill="#66bb6a"/>`,
  },
  guitar: {
    wall: ["#f1e9dd", "#ddcdb6"],
    surface: ["#7d5a3c", "#5e4129"],
    object: `
      <g transform="rotate(-18 600 450)">
        <rect x="580" y="40" width="40" height="360" fill="#4a2f1b"/>
        <rect x="570" y="10" width="60" height="80" rx="10" fill="#2e1d10"/>
        <ellipse cx="600" cy="480" rx="150" ry="120" fill="url(#wood)"/>
        <ellipse cx="600" cy="640" rx="190" ry="150" fill="url(#wood)"/>
        <circle cx="600" cy="520" r="48" fill="#2e1d10"/>
        <rect x="545" y="650" width="110" height="22" rx="6" fill="#2e1d10"/>
        <path d="M592 20 L592 660 M608 20 L608 660" stroke="#efe6d6" stroke-width="2"/>
      </g>`,
  },
  plant: {
    wall: ["#eef2e6", "#d8e2c8"],
    surface: ["#cbb89d", "#ad9878"],
    object: `
      <g fill="#2e7d4f">
        <ellipse cx="520" cy="330" rx="70" ry="150" transform="rotate(-35 520 330)"/>
        <ellipse cx="690" cy="320" rx="70" ry="150" transform="rotate(38 690 320)"/>
        <ellipse cx="605" cy="250" rx="62" ry="160"/>
        <ellipse cx="450" cy="450" rx="55" ry="120" transform="rotate(-65 450 450)" fill="#3c9a62"/>
        <ellipse cx="760" cy="450" rx="55" ry="120" transform="rotate(65 760 450)" fill="#3c9a62"/>
      </g>
      <path d="M605 420 L605 540 M520 360 L590 520 M690 350 L620 520" stroke="#245c3a" stroke-width="8"/>
      <path d="M470 520 L730 520 L700 700 L500 700 Z" fill="#c8643c"/>
      <rect x="455" y="505" width="290" height="40" rx="10" fill="#b4552f"/>`,
  },
};

/** A grid of keys (calculator, keyboard): `accent` colours the last key of each row. */
function keyGrid(
  x: number,
  y: number,
  columns: number,
  rows: number,
  w: number,
  h: number,
  gap: number,
  fill: string,
  accent: string,
): string {
  const keys: string[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const colour = column === columns - 1 ? accent : fill;
      keys.push(
        `<rect x="${x + column * (w + gap)}" y="${y + row * (h + gap)}" width="${w}" height="${h}" rx="7" fill="${colour}"/>`,
      );
    }
  }
  return keys.join("");
}

/** A game ticket with its stub, turned by `angle` degrees. */
function ticket(angle: number, x: number, y: number, paper: string, band: string): string {
  return `<g transform="rotate(${angle} ${x + 260} ${y + 110})">
    <rect x="${x}" y="${y}" width="520" height="220" rx="14" fill="${paper}"/>
    <rect x="${x}" y="${y}" width="520" height="56" rx="14" fill="${band}"/>
    <rect x="${x}" y="${y + 40}" width="520" height="16" fill="${band}"/>
    <path d="M${x + 390} ${y + 70} L${x + 390} ${y + 210}" stroke="#b8b0a4" stroke-width="4" stroke-dasharray="10 10"/>
    <text x="${x + 24}" y="${y + 40}" font-family="${FONT}" font-size="28" font-weight="bold" fill="#fff">HOME GAME</text>
    <text x="${x + 24}" y="${y + 110}" font-family="${FONT}" font-size="26" fill="#333">SATURDAY · 2:30 PM</text>
    <text x="${x + 24}" y="${y + 160}" font-family="${FONT}" font-size="26" fill="#333">SECTION 14 · ROW F</text>
    <text x="${x + 410}" y="${y + 150}" font-family="${FONT}" font-size="40" font-weight="bold" fill="${band}">ADMIT</text>
  </g>`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG of a listing's picture: the object on a table against a wall, with its name on a tag. */
function sceneSvg(drawing: DemoDrawing, name: string): string {
  const scene = SCENES[drawing];
  const label = escapeXml(name);
  // A tag about as wide as its text (bold DejaVu Sans averages ~0.66 em a character).
  const tagWidth = Math.round(name.length * 21 + 64);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${RENDER_WIDTH}" height="${(RENDER_WIDTH * HEIGHT) / WIDTH}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${scene.wall[0]}"/><stop offset="1" stop-color="${scene.wall[1]}"/></linearGradient>
    <linearGradient id="surface" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.surface[0]}"/><stop offset="1" stop-color="${scene.surface[1]}"/></linearGradient>
    <radialGradient id="light" cx="0.25" cy="0.15" r="0.9"><stop offset="0" stop-color="#ffffff" stop-opacity="0.45"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>
    <radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity="0.35"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
    <radialGradient id="glow"><stop offset="0" stop-color="#fff3c4" stop-opacity="0.9"/><stop offset="1" stop-color="#fff3c4" stop-opacity="0"/></radialGradient>
    <linearGradient id="metal" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#c9d1d8"/><stop offset="0.5" stop-color="#f4f6f8"/><stop offset="1" stop-color="#aeb8c1"/></linearGradient>
    <linearGradient id="oak" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#b7824c"/><stop offset="0.5" stop-color="#cf9a61"/><stop offset="1" stop-color="#a8733f"/></linearGradient>
    <radialGradient id="wood" cx="0.4" cy="0.35" r="0.8"><stop offset="0" stop-color="#f0b86e"/><stop offset="1" stop-color="#b06a2c"/></radialGradient>
  </defs>
  <rect width="${WIDTH}" height="${HORIZON}" fill="url(#wall)"/>
  <rect y="${HORIZON}" width="${WIDTH}" height="${HEIGHT - HORIZON}" fill="url(#surface)"/>
  <rect y="${HORIZON}" width="${WIDTH}" height="6" fill="#000" opacity="0.08"/>
  <ellipse cx="600" cy="700" rx="380" ry="48" fill="url(#shadow)"/>
  ${scene.object}
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#light)"/>
  <g transform="translate(48 ${HEIGHT - 120})">
    <rect width="${tagWidth}" height="72" rx="36" fill="#ffffff" opacity="0.92"/>
    <text x="30" y="47" font-family="${FONT}" font-size="32" font-weight="bold" fill="#222">${label}</text>
  </g>
</svg>`;
}

/** A listing's picture as a JPEG, as a phone would upload it. */
export async function drawListingPhoto(drawing: DemoDrawing, name: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await sharp(Buffer.from(sceneSvg(drawing, name)))
      .jpeg({ quality: 88 })
      .toBuffer(),
  );
}

/** A profile picture: the initials on a two-colour gradient (shown round, so drawn square). */
export async function drawAvatar(
  initials: string,
  colours: [string, string],
): Promise<Uint8Array<ArrayBuffer>> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colours[0]}"/><stop offset="1" stop-color="${colours[1]}"/></linearGradient></defs>
  <rect width="480" height="480" fill="url(#g)"/>
  <circle cx="380" cy="90" r="160" fill="#ffffff" opacity="0.12"/>
  <text x="240" y="240" dy="0.35em" font-family="${FONT}" font-size="170" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(initials)}</text>
</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}
