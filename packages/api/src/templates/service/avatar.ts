import { createHash } from "node:crypto";

const PALETTE = [
  ["#2563eb", "#60a5fa"],
  ["#7c3aed", "#c084fc"],
  ["#db2777", "#f472b6"],
  ["#ea580c", "#fb923c"],
  ["#059669", "#34d399"],
  ["#0891b2", "#22d3ee"],
  ["#4f46e5", "#818cf8"],
  ["#b45309", "#fbbf24"],
] as const;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The one or two letters an avatar shows: initials of the first two words, or the first character (CJK). */
function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = [...words[0]!][0]!;
  if (/[\u3040-\u9fff\uac00-\ud7af]/.test(first)) return first;
  const second = words[1] ? [...words[1]][0]! : "";
  return `${first}${second}`.toUpperCase();
}

/**
 * A deterministic SVG avatar for a name: the same name always gives the same picture (colours
 * and a pattern from the name's hash, the initials in the middle), so it never falls back to the
 * default avatar and needs no image provider.
 */
export function avatarSvg(name: string): string {
  const hash = createHash("sha256").update(name.trim()).digest();
  const [from, to] = PALETTE[hash[0]! % PALETTE.length]!;
  const angle = (hash[1]! % 4) * 45;
  const dots = [0, 1, 2]
    .map((i) => {
      const cx = 16 + (hash[2 + i * 3]! % 96);
      const cy = 16 + (hash[3 + i * 3]! % 96);
      const r = 8 + (hash[4 + i * 3]! % 18);
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#fff" fill-opacity="0.14"/>`;
    })
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">`,
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    `<rect width="128" height="128" rx="28" fill="url(#g)"/>${dots}`,
    `<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="48" font-weight="600" fill="#fff">${escapeXml(initialsOf(name))}</text>`,
    `</svg>`,
  ].join("");
}

/** {@link avatarSvg} as a data URL, the form app and workflow avatars are stored in (fits the 1,000-character avatar limit). */
export function avatarDataUrl(name: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(avatarSvg(name)).toString("base64")}`;
}
