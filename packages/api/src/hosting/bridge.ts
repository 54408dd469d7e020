import { ServiceError } from "../errors";
import type { Deps } from "../kernel";

/**
 * The boundary between Parley and whatever logs a personal account in. Parley ships no
 * implementation that speaks a messaging platform's private protocol: those breach the
 * platforms' terms and get accounts banned (docs/channels.md, "Personal WeChat"). An operator
 * who has a sanctioned way to host an account implements this interface and installs it with
 * {@link useHostingBridge}; without one, every login call answers `hosting_bridge_not_configured`.
 *
 * Times are milliseconds since the epoch. `accountId` is Parley's id of the hosted account;
 * `session` is the bridge's own opaque state for a logged-in account (Parley stores it sealed
 * and hands it back on every call).
 */
export interface HostingBridge {
  /** Shown to owners and stored with each account (a login started on one bridge cannot continue on another). */
  readonly name: string;
  /** False only for the built-in {@link noHostingBridge}. */
  readonly configured: boolean;
  /** Starts a login: a QR code for the person to scan with the account's phone. */
  requestQrCode(input: { accountId: string }): Promise<HostingQrCode>;
  /** Where the login started by {@link HostingBridge.requestQrCode} stands now. */
  pollLogin(input: { accountId: string; loginId: string }): Promise<HostingLoginProgress>;
  /** Sends the verification code the platform asked for during a login. */
  submitVerifyCode(input: { accountId: string; loginId: string; code: string }): Promise<HostingVerifyOutcome>;
  /** Ends the login (pending or complete); the bridge forgets the session. */
  logout(input: { accountId: string; loginId: string | null; session: string | null }): Promise<void>;
  /** The group chats the logged-in account is a member of. */
  listGroups(input: { accountId: string; session: string }): Promise<HostingGroupInfo[]>;
  /** Sends a text message as the account, to a group chat or a contact. */
  sendText(input: { accountId: string; session: string; to: HostingRecipient; text: string }): Promise<{ ids: string[] }>;
}

/** A QR code to scan, valid until `expiresAt`. */
export interface HostingQrCode {
  /** The bridge's handle of this login attempt, passed back to `pollLogin` and `submitVerifyCode`. */
  loginId: string;
  /** What the console renders as a QR code: a URL or the raw payload. */
  qrCode: string;
  expiresAt: number;
}

/** The logged-in person, as the platform describes them. */
export interface HostingProfile {
  externalId: string;
  nickname: string;
  avatarUrl?: string;
}

/** Progress of a login, as {@link HostingBridge.pollLogin} reports it. */
export type HostingLoginProgress =
  /** Not scanned yet. */
  | { status: "waiting" }
  /** Scanned; waiting for the person to confirm on the phone. */
  | { status: "scanned" }
  /** The platform wants a verification code (sent by SMS or shown on another device). */
  | { status: "verify_code_required"; hint?: string; expiresAt?: number }
  /** Logged in. */
  | { status: "confirmed"; profile: HostingProfile; session: string }
  /** The QR code or the verification step ran out; a new QR code is needed. */
  | { status: "expired" };

/** What the platform said about a submitted verification code. */
export type HostingVerifyOutcome = { status: "confirmed"; profile: HostingProfile; session: string } | { status: "wrong_code" } | { status: "expired" };

/** A group chat as the bridge lists it. */
export interface HostingGroupInfo {
  externalId: string;
  name: string;
  memberCount?: number;
}

/** Who a message goes to. */
export interface HostingRecipient {
  kind: "group" | "contact";
  externalId: string;
}

/** Something the bridge noticed on its own and reports through `reportHostingEvent`. */
export type HostingBridgeEvent =
  /** The connection dropped (phone offline, network); the session may come back. */
  | { type: "connection_lost" }
  /** The connection is back after `connection_lost`. */
  | { type: "reconnected" }
  /** The platform ended the session; the account must log in again with a new QR code. */
  | { type: "session_expired" };

/** The official routes an owner should use instead of hosting a personal account. */
export const officialRoutes = [
  {
    kind: "wechat-customer-service",
    name: { en: "WeChat Customer Service (微信客服)", "zh-CN": "微信客服" },
    covers: {
      en: "One-to-one chats with customers who come from any WeChat entry point (link, QR code, mini program, official account menu, video channel).",
      "zh-CN": "与来自任意微信入口（链接、二维码、小程序、公众号菜单、视频号）的客户一对一沟通。",
    },
  },
  {
    kind: "wechat-official-account",
    name: { en: "WeChat Official Account (公众号)", "zh-CN": "微信公众号" },
    covers: {
      en: "Messages sent to your official account by its followers.",
      "zh-CN": "关注者发给公众号的消息。",
    },
  },
  {
    kind: "wechat-work",
    name: { en: "WeChat Work (企业微信) app", "zh-CN": "企业微信自建应用" },
    covers: {
      en: "Your staff inside WeChat Work; customers reached through its external contacts.",
      "zh-CN": "企业内部员工；通过企业微信外部联系人触达的客户。",
    },
  },
] as const;

function notConfigured(): never {
  throw new ServiceError("forbidden", "hosting_bridge_not_configured");
}

/**
 * The default bridge: it hosts nothing. Each call answers the `hosting_bridge_not_configured`
 * error, which names the official routes to use instead.
 */
export const noHostingBridge: HostingBridge = {
  name: "none",
  configured: false,
  requestQrCode: async () => notConfigured(),
  pollLogin: async () => notConfigured(),
  submitVerifyCode: async () => notConfigured(),
  logout: async () => notConfigured(),
  listGroups: async () => notConfigured(),
  sendText: async () => notConfigured(),
};

// Deps is shared by every domain; the bridge is kept beside it rather than widening it for one optional port.
const installed = new WeakMap<Deps, HostingBridge>();

/** Installs a bridge for an app built from `deps` (at start-up, or in a test). */
export function useHostingBridge(deps: Deps, bridge: HostingBridge): void {
  installed.set(deps, bridge);
}

/** The bridge installed for `deps`, or {@link noHostingBridge}. */
export function hostingBridgeOf(deps: Deps): HostingBridge {
  return installed.get(deps) ?? noHostingBridge;
}
