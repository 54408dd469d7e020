import { endpoints } from "../../lib/api/endpoints";
import { sessionStore } from "../../lib/api/session";
import type { Language } from "../../i18n";

/** Saves a language switch to the account too, quietly, when someone is signed in. */
export async function saveLanguageToAccount(language: Language): Promise<void> {
  if (!sessionStore.get().token) return;
  const result = await endpoints.me.update({ language }, { silent: true });
  if (result.ok) sessionStore.setUser(result.data);
}
