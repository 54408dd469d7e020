/**
 * Plays audio as it downloads: the stream's chunks are appended to a MediaSource so playback
 * starts with the first frames; where MediaSource cannot take the type, the whole audio is
 * played from a blob URL once downloaded. Resolves when the stream has been read to its end;
 * playback errors (autoplay refused) are swallowed, read-aloud stays silent on failure.
 */
export async function playAudioStream(audio: HTMLAudioElement, body: ReadableStream<Uint8Array>, contentType = "audio/mpeg"): Promise<void> {
  const Source = (globalThis as { MediaSource?: typeof MediaSource }).MediaSource;
  const play = () => void audio.play()?.catch(() => undefined);
  if (!Source?.isTypeSupported(contentType)) {
    const blob = await new Response(body).blob();
    audio.src = URL.createObjectURL(new Blob([blob], { type: contentType }));
    play();
    return;
  }
  const source = new Source();
  audio.src = URL.createObjectURL(source);
  await new Promise((resolve) => source.addEventListener("sourceopen", resolve, { once: true }));
  const buffer = source.addSourceBuffer(contentType);
  const appended = () => new Promise((resolve) => buffer.addEventListener("updateend", resolve, { once: true }));
  const reader = body.getReader();
  let started = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (source.readyState !== "open") {
      await reader.cancel();
      return;
    }
    buffer.appendBuffer(value as Uint8Array<ArrayBuffer>);
    await appended();
    if (!started) {
      started = true;
      play();
    }
  }
  if (source.readyState === "open") source.endOfStream();
}
