import type { Deps } from "../kernel/deps";
import type { Language } from "../i18n/language";

/** The kernel's dependencies; re-exported here while routes and services still import them from HTTP. */
export type { Deps };

/** Who is calling and in which space. */
export interface Auth {
  userId: string;
  spaceId: string;
  role: "owner" | "admin" | "member";
  via: "session" | "api-key";
  sessionId?: string;
  apiKeyId?: string;
}

/** Hono environment shared by every route. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    language: Language;
    requestId: string;
    auth: Auth;
  };
}
