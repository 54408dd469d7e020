import { and, desc, eq, isNull } from "drizzle-orm";
import { newId, newNumericCode, safeEqual, sha256 } from "../../crypto";
import { verificationCodes } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { type Channel, maskTarget } from "./contact";
import { signInThrottle } from "./login-guard";

/** What a code may be used for. */
export const codePurposes = ["register", "login", "reset-password", "change-password", "bind"] as const;
/** One of {@link codePurposes}. */
export type CodePurpose = (typeof codePurposes)[number];

const CODE_TTL_MINUTES = 10;
const MAX_ATTEMPTS = 5;

function codeHash(channel: Channel, target: string, purpose: CodePurpose, code: string): string {
  return sha256(`${channel}:${target}:${purpose}:${code}`);
}

/**
 * Creates a one-time code and sends it. Throttled per target and per IP; a resend inside the
 * resend window is refused with how long to wait.
 */
export async function issueCode(deps: Deps, input: { channel: Channel; target: string; purpose: CodePurpose; ip: string; language: Language }) {
  const { config } = deps;
  const throttle = signInThrottle(deps.throttle);
  const { channel, target, purpose } = input;
  const wait = await throttle.peek(`code-resend:${channel}:${target}:${purpose}`, 1);
  if (wait > 0) throw new ServiceError("rate_limited", "code_resend_wait", { seconds: wait }, { retryAfterSeconds: wait });
  const ipWait = await throttle.hit(`codes-ip:${input.ip}`, config.throttle.codesPerIp, config.throttle.windowSeconds);
  if (ipWait > 0) throw fail.rateLimited(ipWait);
  const targetWait = await throttle.hit(`codes-target:${channel}:${target}`, config.throttle.codesPerTarget, config.throttle.windowSeconds);
  if (targetWait > 0) throw fail.rateLimited(targetWait);

  const code = newNumericCode(6);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000).toISOString();
  const text = messageText(input.language, "mail.code.text", { code, minutes: CODE_TTL_MINUTES });
  try {
    if (channel === "email") {
      await deps.mail.send({ to: target, subject: messageText(input.language, "mail.code.subject", { code }), text });
    } else {
      if (!deps.sms) throw new ServiceError("validation", "sms_disabled");
      await deps.sms.send({ phone: target, template: "verification-code", params: { code }, text });
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    deps.logger.warn("verification code delivery failed", { channel, to: maskTarget(channel, target), error: String(error) });
    throw new ServiceError("external", "mail_failed");
  }
  // Older unused codes for the same purpose stop working once a new one is sent.
  await deps.db
    .update(verificationCodes)
    .set({ consumedAt: now.toISOString() })
    .where(
      and(
        eq(verificationCodes.channel, channel),
        eq(verificationCodes.target, target),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
      ),
    );
  await deps.db.insert(verificationCodes).values({
    id: newId("vc"),
    channel,
    target,
    purpose,
    codeHash: codeHash(channel, target, purpose, code),
    expiresAt,
    createdAt: now.toISOString(),
  });
  // The code is sent: a throttle store gone meanwhile only loses the resend wait (logged).
  await throttle.hit(`code-resend:${channel}:${target}:${purpose}`, 1, config.throttle.codeResendSeconds).catch((error: unknown) => {
    if (!(error instanceof ServiceError)) throw error;
    deps.logger.warn("code resend wait not recorded: the throttle store is unreachable");
  });
  return {
    sentTo: maskTarget(channel, target),
    expiresInSeconds: CODE_TTL_MINUTES * 60,
    resendAfterSeconds: config.throttle.codeResendSeconds,
  };
}

/** Checks a code and uses it up. Wrong guesses count; after five the code is dead. */
export async function consumeCode(
  deps: Pick<Deps, "db" | "now">,
  input: { channel: Channel; target: string; purpose: CodePurpose; code: string },
): Promise<void> {
  const now = deps.now().toISOString();
  const row = await deps.db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.channel, input.channel),
        eq(verificationCodes.target, input.target),
        eq(verificationCodes.purpose, input.purpose),
        isNull(verificationCodes.consumedAt),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .get();
  if (!row || row.expiresAt <= now || row.attempts >= MAX_ATTEMPTS) throw fail.invalid("code_invalid", "code");
  const matches = safeEqual(row.codeHash, codeHash(input.channel, input.target, input.purpose, input.code.trim()));
  if (!matches) {
    await deps.db
      .update(verificationCodes)
      .set({ attempts: row.attempts + 1 })
      .where(eq(verificationCodes.id, row.id));
    throw fail.invalid("code_invalid", "code");
  }
  const used = await deps.db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  if (used.length === 0) throw fail.invalid("code_invalid", "code");
}
