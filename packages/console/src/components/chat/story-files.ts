import type { AttachedFile } from "./pending-files";

const swatch = (color: string) =>
  `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="${color}"/></svg>`)}`;

/** Files as an upload answers them, for stories. */
export const storyFiles: Array<AttachedFile & { createdAt: string }> = [
  { id: "f1", name: "receipt.png", kind: "image", mimeType: "image/png", sizeBytes: 184_320, url: swatch("#9aa5f0"), createdAt: "2026-11-21T10:14:00Z" },
  { id: "f2", name: "damage.jpg", kind: "image", mimeType: "image/jpeg", sizeBytes: 2_411_724, url: swatch("#f0b59a"), createdAt: "2026-11-21T10:14:00Z" },
  { id: "f3", name: "contract.pdf", kind: "document", mimeType: "application/pdf", sizeBytes: 912_384, url: "#", createdAt: "2026-11-21T10:14:00Z" },
  { id: "f4", name: "notes.md", kind: "document", mimeType: "text/markdown", sizeBytes: 812, url: "#", createdAt: "2026-11-21T10:14:00Z" },
];
