import type { ChannelField, LocalizedText } from "../../lib/api/channel-clients";

/** A translation key naming what is wrong, or undefined when the value is fine. */
export type FieldRuleResult = string | undefined;

/** The longest value the server takes for a field. */
export const CHANNEL_VALUE_MAX = 4000;

/** What the owner does with a secret field: keep the stored value, type a new one, or clear it. */
export type SecretAction = "keep" | "replace" | "clear";

/** A catalogue text in the interface language (English when the language is missing). */
export function localized(text: LocalizedText | undefined, language: string): string {
  if (!text) return "";
  return language.startsWith("zh") ? text["zh-CN"] || text.en : text.en;
}

/** Whether `value` matches a field's pattern; a pattern the browser cannot compile lets the server judge. */
export function matchesPattern(pattern: string | undefined, value: string): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}

/**
 * The server's check of one field, run first in the browser: trimmed like the server, a
 * required field needs a value (a secret that is set and kept has one), options and the
 * pattern apply to non-empty values.
 */
export function checkChannelField(field: ChannelField, raw: string | undefined, secret?: { set: boolean; action: SecretAction }): FieldRuleResult {
  const value = (raw ?? "").trim();
  if (field.secret && secret?.action === "keep") return secret.set || !field.required ? undefined : "clients.channelForm.required";
  if (field.secret && secret?.action === "clear") return field.required ? "clients.channelForm.required" : undefined;
  if (!value) return field.required ? "clients.channelForm.required" : undefined;
  if (value.length > CHANNEL_VALUE_MAX) return "clients.channelForm.tooLong";
  if (field.options && !field.options.some((option) => option.value === value)) return "clients.channelForm.option";
  if (!matchesPattern(field.pattern, value)) return "clients.channelForm.pattern";
  return undefined;
}

/**
 * The `config` of a create or update body: every plain field with its trimmed value ('' clears
 * it), secrets only when replaced (the value) or cleared (''); kept secrets are left out.
 */
export function configBody(
  fields: readonly ChannelField[],
  values: Record<string, string | undefined>,
  actions: Record<string, SecretAction>,
): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.key] ?? "").trim();
    if (!field.secret) {
      body[field.key] = value;
      continue;
    }
    const action = actions[field.key] ?? "replace";
    if (action === "clear") body[field.key] = "";
    else if (action === "replace" && value) body[field.key] = value;
  }
  return body;
}

/** The form values of a catalogue form: stored plain values, else defaults; secrets start empty. */
export function initialConfig(fields: readonly ChannelField[], stored: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field.key, field.secret ? "" : (stored[field.key] ?? field.default ?? "")]));
}

/** The config field a server refusal names (`config.botToken` → `botToken`), if any. */
export function configFieldOf(field: string | undefined): string | undefined {
  const match = /^config\.(.+)$/.exec(field ?? "");
  return match?.[1];
}
