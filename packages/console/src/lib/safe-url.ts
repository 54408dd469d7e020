/** Whether a URL may be followed or loaded: http(s) only, and site paths. */
export function isSafeUrl(url: string): boolean {
  if (url.startsWith("/") && !url.startsWith("//")) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}

/** Whether a URL is an inline PNG, JPEG or SVG picture (drawn avatars); an <img> never runs script from it. */
export function isImageDataUrl(url: string): boolean {
  return /^data:image\/(png|jpeg|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(url);
}
