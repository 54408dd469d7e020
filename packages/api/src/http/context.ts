import type { Auth } from "../kernel/auth";
import type { Deps } from "../kernel/deps";
import type { Language } from "../i18n/language";

/** The kernel's dependencies and caller, re-exported for the routes. */
export type { Auth, Deps };

/** Hono environment shared by every route. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    language: Language;
    requestId: string;
    auth: Auth;
  };
}
