import { createClient, type ParleyError } from "@parley/sdk";
import { currentLanguage, i18n } from "../../i18n";
import { feedback } from "../feedback";
import { upgradeDetailOf, upgradePrompt } from "../upgrade";
import { isPortalPath, PATHS } from "../paths";
import { sessionStore } from "./session";
import { createThrottle, LOGIN_WARNING_INTERVAL_MS, NETWORK_WARNING_INTERVAL_MS, REQUEST_TIMEOUT_MS } from "./throttle";

/** Why a call failed: the SDK's kinds plus 'unauthenticated' for calls refused before sending. */
export interface ApiFailure {
  kind: ParleyError["kind"] | "unauthenticated";
  status?: number;
  code?: number;
  message: string;
  requestId?: string;
  /** The offending field of a 400 answer (`data.field`), e.g. `requestParams.0.children.1.name`. */
  field?: string;
}

/** The offending field an error envelope names, if any. */
function fieldOf(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const field = (data as { field?: unknown }).field;
  return typeof field === "string" ? field : undefined;
}

/** The outcome of a call: its data, or a failure the request layer has already reported. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiFailure };

/** How one call's failure is reported. */
export interface CallOptions {
  /** Callable without a token. */
  public?: boolean;
  /** Do not show the server's message on failure (the caller shows something better). */
  silent?: boolean;
  /** A start-up call: failures are ignored entirely unless the session has ended (spec §8). */
  startup?: boolean;
  /** Calls sharing a key cancel the earlier pending one (spec §7, list and dashboard calls). */
  dedupeKey?: string;
  signal?: AbortSignal;
}

/** What the request layer hands each SDK call: its abort signal and the language header. */
export interface SendInit {
  signal: AbortSignal;
  headers: Record<string, string>;
}

/** Envelope codes with a fixed meaning (spec §8). */
export const CODES = { sessionEnded: 401, htmlMessage: 440, upgradeRequired: 701, insufficientCredits: 870 } as const;

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/** Lets the request layer move the router (set once the router exists). */
export function setNavigator(next: Navigate): void {
  navigate = next;
}

const networkGate = createThrottle(NETWORK_WARNING_INTERVAL_MS);
const loginGate = createThrottle(LOGIN_WARNING_INTERVAL_MS);
const pending = new Map<string, AbortController>();

/** The SDK client every endpoint goes through. */
export const client = createClient({
  baseUrl: typeof window === "undefined" ? "" : window.location.origin,
  token: () => sessionStore.get().token,
  // Read at each request: switching the language must not need a reload (the chat stream and
  // every call without an explicit header follow it).
  language: () => currentLanguage(),
  timeoutMs: REQUEST_TIMEOUT_MS,
});

function currentPath(): string {
  return typeof window === "undefined" ? "/" : window.location.pathname;
}

/** Ends the session and goes to login, keeping where the user was (spec §8, code 401). */
export function endSession(options: { notify: boolean }): void {
  const here = typeof window === "undefined" ? "/" : `${window.location.pathname}${window.location.search}`;
  const wasSignedIn = sessionStore.get().token !== undefined;
  sessionStore.clear();
  if (options.notify && wasSignedIn) feedback.warning(i18n.t("errors.sessionEnded"));
  if (currentPath() !== PATHS.login) {
    const returnTo = here.startsWith("/console") ? `?returnTo=${encodeURIComponent(here)}` : "";
    navigate(`${PATHS.login}${returnTo}`);
  }
}

function report(error: ParleyError, options: CallOptions): void {
  const code = error.code ?? error.status;
  if (error.kind === "aborted") {
    console.log("request cancelled");
    return;
  }
  if (error.kind === "network" || error.kind === "timeout") {
    if (!options.startup && networkGate()) feedback.networkWarning();
    return;
  }
  if (code === CODES.sessionEnded && !options.public) {
    endSession({ notify: !options.startup });
    return;
  }
  if (options.startup) return;
  if (code === CODES.htmlMessage) {
    feedback.htmlError(error.message);
    return;
  }
  // 701 is not shown as an error: it opens the upgrade dialog, which leads to the price page.
  if (code === CODES.upgradeRequired) {
    upgradePrompt.show(upgradeDetailOf(error.message, error.data));
    return;
  }
  if (code === CODES.insufficientCredits) return;
  if (!options.silent) feedback.error(error.message || i18n.t("errors.generic"));
}

/**
 * Whether the request layer already answered this failure itself (the upgrade dialog for 701,
 * silence for 870, login for 401, the HTML notice for 440), so a form must not show it again.
 */
export function handledByRequestLayer(error: Pick<ApiFailure, "code">): boolean {
  return (
    error.code === CODES.upgradeRequired || error.code === CODES.insufficientCredits || error.code === CODES.sessionEnded || error.code === CODES.htmlMessage
  );
}

/** Shows 'please login first' (spec §5): never on portal pages, at most once per second. */
export function warnLoginFirst(pathname: string = currentPath()): void {
  if (!isPortalPath(pathname) && loginGate()) feedback.warning(i18n.t("errors.loginFirst"));
}

/**
 * Makes one API call through the SDK and applies spec §5/§8 to its failure: refuses
 * token-less private calls, cancels superseded duplicates, ends the session on 401, shows
 * 440 as sanitized HTML, turns 701 into the upgrade dialog, stays silent on 870 and reports everything
 * else once.
 */
export async function call<T>(options: CallOptions, send: (init: SendInit) => Promise<{ data?: T; error?: ParleyError }>): Promise<ApiResult<T>> {
  if (!options.public && !sessionStore.get().token) {
    if (!options.startup) warnLoginFirst();
    return { ok: false, error: { kind: "unauthenticated", message: i18n.t("errors.loginFirst") } };
  }

  const controller = new AbortController();
  if (options.dedupeKey) {
    pending.get(options.dedupeKey)?.abort();
    pending.set(options.dedupeKey, controller);
  }
  const onOuterAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });

  try {
    const result = await send({ signal: controller.signal, headers: { "Accept-Language": currentLanguage() } });
    if (result.error) {
      report(result.error, options);
      const { kind, status, code, message, requestId, data } = result.error;
      const field = fieldOf(data);
      return { ok: false, error: { kind, status, code, message, requestId, ...(field ? { field } : {}) } };
    }
    return { ok: true, data: result.data as T };
  } finally {
    options.signal?.removeEventListener("abort", onOuterAbort);
    if (options.dedupeKey && pending.get(options.dedupeKey) === controller) pending.delete(options.dedupeKey);
  }
}
