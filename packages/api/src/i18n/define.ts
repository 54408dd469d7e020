import type { Language } from "./language";

/** One message in every language. `{name}` in the text is a parameter. */
export type Message = Readonly<Record<Language, string>>;

/**
 * Declares an area's messages. The keys stay literal types, so every id used elsewhere is
 * checked; an entry without one of the languages does not compile.
 */
export function defineMessages<const T extends Record<string, Message>>(messages: T): T {
  return messages;
}
