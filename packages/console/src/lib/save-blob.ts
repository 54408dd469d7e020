/** Saves a downloaded file (a Blob the SDK answered) under `fileName`, as the browser's download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has handed the address to the download; free it once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The file name a Content-Disposition header gives: the UTF-8 `filename*` when present (it
 * keeps non-ASCII names), else the plain `filename`; undefined when it names none.
 */
export function fileNameOfDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || undefined;
}
