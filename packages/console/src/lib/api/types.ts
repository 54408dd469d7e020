import type { components } from "@parley/sdk";

/**
 * The shapes the console reads from the API, taken from the SDK's generated contract so a
 * change to the server's schema shows up here as a type error.
 */
type Schemas = components["schemas"];

export const MEMBER_GRADES = ["FREE", "NORMAL", "PROFESSION", "ENTERPRISE", "CUSTOM"] as const;
/** A plan grade as the server names it. */
export type MemberGrade = (typeof MEMBER_GRADES)[number];

export const SPACE_ROLES = ["owner", "admin", "member"] as const;
/** A member's role inside a space. */
export type SpaceRole = (typeof SPACE_ROLES)[number];

/** The signed-in person, as of their current space (spec §3 'User (session)'). */
export type User = Schemas["User"];
/** What every successful sign-in returns. */
export type Session = Schemas["Session"];
/** One entry of the space switcher (the spec's userList; the current one is nowSelect). */
export type SpaceEntry = Schemas["Space"];
/** The answer of GET /api/v1/privileges. */
export type Privileges = Schemas["Privileges"];
/** One menu entry as the privileges call describes it. */
export type MenuPrivilege = Privileges["menus"][number];
/** A personal API key as listed (never the secret). */
export type ApiKeySummary = Schemas["ApiKey"];
export type OutboxMessage = Schemas["OutboxMessage"];
/** A key just created: the secret is returned this one time. */
export type CreatedApiKey = Schemas["CreatedApiKey"];
/** Which sign-in methods this instance offers. */
export type AuthProviders = Schemas["SignInProviders"];
/** The answer of POST /api/v1/auth/codes. */
export type CodeSent = Schemas["SendCodeResult"];
/** Where a verification code is sent. */
export type CodeChannel = Schemas["SendCodeRequest"]["channel"];
/** What a verification code will be used for. */
export type CodePurpose = Schemas["SendCodeRequest"]["purpose"];
/** A WeChat QR login attempt. */
export type WechatQr = Schemas["WechatQr"];
/** Where a WeChat QR login attempt stands. */
export type WechatQrStatus = Schemas["WechatQrState"];

export const MENU_GROUPS = ["create", "access", "manage", "discover"] as const;
/** A group of the console's left menu. */
export type MenuGroup = (typeof MENU_GROUPS)[number];
/** The plan a menu entry advertises. */
export type MenuHint = NonNullable<MenuPrivilege["hint"]>;

// The tuples above must list exactly what the contract allows.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const contractChecks: [Same<MemberGrade, User["memberGrade"]>, Same<SpaceRole, User["role"]>, Same<MenuGroup, MenuPrivilege["group"]>] = [true, true, true];
void contractChecks;
