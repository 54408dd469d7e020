import nodemailer from "nodemailer";
import { ExternalProviderError, type MailSender, type OutgoingMail } from "../ports.js";

/** Connection settings for an SMTP relay. */
export interface SmtpMailConfig {
  host: string;
  port: number;
  /** Implicit TLS (usually port 465). When false, STARTTLS is used if the server offers it. */
  secure?: boolean;
  user?: string;
  password?: string;
  /** Envelope and header sender, e.g. `Parley <no-reply@example.com>`. */
  from: string;
  /** Per-phase socket timeout; defaults to 15 seconds. */
  timeoutMs?: number;
}

/**
 * A {@link MailSender} that relays through an SMTP server.
 * Delivery failures (refused login, rejected recipient, unreachable host)
 * surface as {@link ExternalProviderError} with provider `smtp`.
 */
export function createSmtpMailSender(config: SmtpMailConfig): MailSender {
  const timeoutMs = config.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure ?? false,
    auth: config.user !== undefined ? { user: config.user, pass: config.password ?? "" } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });

  return {
    kind: "smtp",
    async send(mail: OutgoingMail) {
      try {
        const info = await transport.sendMail({
          from: config.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        return { messageId: info.messageId };
      } catch (error) {
        throw toProviderError(error);
      }
    },
  };
}

/** Keeps only nodemailer's diagnostic fields: its error objects may carry connection settings. */
function toProviderError(error: unknown): ExternalProviderError {
  const source = error as { message?: unknown; code?: unknown; responseCode?: unknown };
  const message = typeof source.message === "string" ? source.message : "SMTP delivery failed";
  return new ExternalProviderError("smtp", `SMTP delivery failed: ${message}`, {
    code: typeof source.code === "string" ? source.code : undefined,
    responseCode: typeof source.responseCode === "number" ? source.responseCode : undefined,
  });
}
