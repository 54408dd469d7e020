import { hmacSha256 } from "../../crypto";

/**
 * The `secret_token` Telegram sends back in `X-Telegram-Bot-Api-Secret-Token` with every update.
 * When the operator leaves the field empty, one is derived from the bot token (HMAC, hex: inside
 * Telegram's `A-Z a-z 0-9 _ -` alphabet), so `register` and `verify` agree without storing it.
 */
export function webhookSecret(config: { botToken?: string; secretToken?: string }): string {
  const given = config.secretToken?.trim();
  if (given) return given;
  return hmacSha256(config.botToken ?? "", "parley telegram webhook secret", "hex");
}

/** The numeric bot id, the part of the bot token before the colon. */
export function botId(botToken: string): string {
  return botToken.split(":")[0] ?? "";
}
