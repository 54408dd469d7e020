import { desc, eq } from "drizzle-orm";
import { newId } from "../crypto";
import type { Db } from "../db/client";
import { outbox } from "../db/schema/index";
import type { Logger } from "../logger";
import type { MailSender, SmsSender } from "./ports";

/**
 * The embedded mail and SMS provider: messages are stored for the instance owner to read and
 * printed to the log, so a fresh install can register users without any account anywhere.
 */
export function createOutbox(db: Db, logger: Logger): { mail: MailSender; sms: SmsSender } {
  const store = async (channel: "email" | "sms", to: string, subject: string, text: string) => {
    const id = newId("msg");
    await db.insert(outbox).values({ id, channel, to, subject, text, createdAt: new Date().toISOString() });
    logger.info(`outbox ${channel} to ${to}: ${subject}`, { text });
    return { messageId: id };
  };
  return {
    mail: { kind: "outbox", send: (mail) => store("email", mail.to, mail.subject, mail.text) },
    sms: { kind: "outbox", send: (sms) => store("sms", sms.phone, sms.template, sms.text) },
  };
}

/** Reads the outbox, newest first. */
export async function listOutbox(db: Db, input: { to?: string; limit: number }) {
  const query = db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(input.limit);
  return input.to ? query.where(eq(outbox.to, input.to)) : query;
}
