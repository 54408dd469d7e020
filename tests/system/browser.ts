import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's Chromium lives, or PARLEY_CHROMIUM. */
export function chromiumPath(): string {
  const candidates = [process.env.PARLEY_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error("Chromium not found: `apt-get install chromium` (or set PARLEY_CHROMIUM)");
  return found;
}

/**
 * Launches headless Chromium (a fresh profile each time) with the flags this closed network needs.
 * `microphone` gives it a fake microphone that plays that WAV file, with media permission granted.
 */
export async function launchBrowser(options: { microphone?: string } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
      ...(options.microphone
        ? ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${options.microphone}`]
        : []),
    ],
  });
}
