import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message the fake SMTP server accepted, decoded far enough for assertions. */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Header names lower-cased; repeated headers keep the last value. */
  headers: Record<string, string>;
  /** The user that authenticated, when the session logged in. */
  user?: string;
  raw: string;
}

/** Options for {@link startSmtpServer}. */
export interface SmtpServerOptions {
  /** When given, AUTH PLAIN/LOGIN is required and checked against these credentials. */
  users?: Record<string, string>;
  /** Recipients answered with `550 mailbox unavailable` at RCPT TO. */
  rejectRecipients?: string[];
}

/** A running fake SMTP server; see {@link startSmtpServer}. */
export interface SmtpServerFake {
  host: string;
  port: number;
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Every accepted message, oldest first. */
  readonly messages: ReceivedMail[];
  /** Resolves with the first accepted message (past or future) matching `predicate`. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Forgets received messages. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * Starts a plain-text SMTP server on 127.0.0.1 (random port) that keeps what it receives.
 * STARTTLS is not offered, so clients connect with `secure: false`.
 */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<SmtpServerFake> {
  const messages: ReceivedMail[] = [];
  const events = new EventEmitter();
  const rejected = new Set((options.rejectRecipients ?? []).map((address) => address.toLowerCase()));
  const users = options.users;

  const server = new SMTPServer({
    logger: false,
    disabledCommands: users ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !users,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (users && auth.username !== undefined && users[auth.username] === auth.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = parseMessage(raw);
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          subject: parsed.headers.subject ?? "",
          text: parsed.text ?? "",
          headers: parsed.headers,
          raw,
          ...(parsed.html !== undefined ? { html: parsed.html } : {}),
          ...(typeof session.user === "string" ? { user: session.user } : {}),
        };
        messages.push(mail);
        events.emit("mail", mail);
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    host: "127.0.0.1",
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      const existing = messages.find(predicate);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const onMail = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          events.off("mail", onMail);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          events.off("mail", onMail);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        events.on("mail", onMail);
      });
    },
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ParsedPart {
  headers: Record<string, string>;
  text?: string;
  html?: string;
}

/**
 * Just enough MIME for messages written by nodemailer: folded headers, RFC 2047 words,
 * nested multipart, quoted-printable and base64 bodies in UTF-8.
 */
export function parseMessage(raw: string): ParsedPart {
  const normalized = raw.replace(/\r\n/g, "\n");
  const split = normalized.indexOf("\n\n");
  const head = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? "" : normalized.slice(split + 2);
  const headers = parseHeaders(head);
  const contentType = headers["content-type"] ?? "text/plain";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();

  if (mediaType.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    const result: ParsedPart = { headers };
    if (!boundary) return result;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      const part = parseMessage(section.replace(/^\n/, ""));
      result.text ??= part.text;
      result.html ??= part.html;
    }
    return result;
  }

  const decoded = decodeBody(body, headers["content-transfer-encoding"]);
  if (mediaType === "text/html") return { headers, html: decoded };
  return { headers, text: decoded };
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = head.replace(/\n[ \t]+/g, " ");
  for (const line of unfolded.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeEncodedWords(value: string): string {
  // Whitespace between adjacent encoded words is not part of the text (RFC 2047 §6.2).
  return value.replace(/(\?=)\s+(=\?)/g, "$1$2").replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) => {
    if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
    return decodeQuotedPrintable(text.replace(/_/g, " "));
  });
}

function decodeBody(body: string, encoding: string | undefined): string {
  const trimmed = body.replace(/\n$/, "");
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "base64":
      return Buffer.from(trimmed.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(trimmed.replace(/=\n/g, ""));
    default:
      return trimmed;
  }
}

function decodeQuotedPrintable(text: string): string {
  const chunks = text
    .split(/(=[0-9A-Fa-f]{2})/)
    .map((token) => (/^=[0-9A-Fa-f]{2}$/.test(token) ? Buffer.from([Number.parseInt(token.slice(1), 16)]) : Buffer.from(token, "utf8")));
  return Buffer.concat(chunks).toString("utf8");
}
