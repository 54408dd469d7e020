/** Saves a downloaded file (a Blob the SDK answered) under `fileName`, as the browser's download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has handed the address to the download; free it once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
