/** One event of a `text/event-stream` body. */
export interface ServerSentEvent {
  /** The `event:` field, or `message` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last `id:` seen on the stream, if any. */
  id?: string;
}

/**
 * Parses a `text/event-stream` body following the WHATWG rules: lines end in CRLF, LF or CR;
 * `:` starts a comment; several `data:` lines join with `\n`; an event is dispatched at a blank
 * line, and one left unfinished when the body ends is dropped. Chunks may split anything,
 * including a UTF-8 character or a CRLF pair. Errors of the body (an abort, say) are thrown.
 */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let scanned = 0;
  let afterCarriageReturn = false;
  let event = "";
  let data = "";
  let hasData = false;
  let lastId = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let index = scanned; index < buffer.length; index++) {
        const char = buffer[index];
        // A CRLF split across chunks must end only one line.
        if (char === "\n" && afterCarriageReturn) {
          afterCarriageReturn = false;
          start = index + 1;
          continue;
        }
        afterCarriageReturn = false;
        if (char !== "\n" && char !== "\r") continue;
        afterCarriageReturn = char === "\r";
        const line = buffer.slice(start, index);
        start = index + 1;
        if (line === "") {
          if (hasData) {
            const message: ServerSentEvent = { event: event || "message", data };
            if (lastId) message.id = lastId;
            yield message;
          }
          event = data = "";
          hasData = false;
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        let fieldValue = colon < 0 ? "" : line.slice(colon + 1);
        if (fieldValue.startsWith(" ")) fieldValue = fieldValue.slice(1);
        if (field === "event") event = fieldValue;
        else if (field === "data") {
          data = hasData ? `${data}\n${fieldValue}` : fieldValue;
          hasData = true;
        } else if (field === "id" && !fieldValue.includes("\0")) lastId = fieldValue;
      }
      buffer = buffer.slice(start);
      scanned = buffer.length;
    }
  } finally {
    // Ends the connection when the consumer stops early; harmless once the body is done.
    reader.cancel().catch(() => {});
  }
}
