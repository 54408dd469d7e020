/**
 * The shapes the console reads from the API (spec §3, the server's v1 contract).
 * They mirror the contract's components; `sdk-contract-check.ts` keeps them in step
 * with the SDK's generated schema.
 */

export const MEMBER_GRADES = ['FREE', 'NORMAL', 'PROFESSION', 'ENTERPRISE', 'CUSTOM'] as const;
/** A plan grade as the server names it. */
export type MemberGrade = (typeof MEMBER_GRADES)[number];

export const SPACE_ROLES = ['owner', 'admin', 'member'] as const;
/** A member's role inside a space. */
export type SpaceRole = (typeof SPACE_ROLES)[number];

/** The signed-in person, as of their current space. */
export interface User {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  avatarUrl: string | null;
  language: string;
  spaceId: string;
  companyCode: string;
  companyName: string;
  companyOwner: boolean;
  memberGrade: MemberGrade;
  authorizedRoute: boolean;
  authorizedRouteList: string[];
  customerAdmin: 'Y' | 'N';
  clientManage: number;
  customerManage: number;
  memberNumber: number;
  companyTabIconUrl: string | null;
  companyTabTitle: string | null;
  companyIconWordUrl: string | null;
  role: SpaceRole;
  hasPassword: boolean;
  isInstanceOwner: boolean;
  createdAt: string;
}

/** What every successful sign-in returns. */
export interface Session {
  token: string;
  expiresAt: string;
  user: User;
}

/** One entry of the space switcher (the spec's userList; the current one is nowSelect). */
export interface SpaceEntry {
  spaceId: string;
  companyCode: string;
  companyName: string;
  kind: 'personal' | 'team';
  role: SpaceRole;
  memberGrade: MemberGrade;
  current: boolean;
}

export const MENU_GROUPS = ['create', 'access', 'manage', 'discover'] as const;
/** A group of the console's left menu. */
export type MenuGroup = (typeof MENU_GROUPS)[number];
/** The plan a menu entry advertises. */
export type MenuHint = 'standard' | 'pro';

/** One menu entry as the privileges call describes it. */
export interface MenuPrivilege {
  key: string;
  group: MenuGroup;
  route: string;
  visible: boolean;
  hint?: MenuHint;
}

/** The answer of GET /api/v1/privileges. */
export interface Privileges {
  memberGrade: MemberGrade;
  menus: MenuPrivilege[];
  authorizedRoute: boolean;
  authorizedRouteList: string[];
  clientManage: number;
  customerManage: number;
  memberNumber: number;
  customerAdmin: 'Y' | 'N';
}

/** A personal API key as listed (never the secret). */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A key just created: the secret is returned this one time. */
export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  createdAt: string;
}

/** Which sign-in methods this instance offers. */
export interface AuthProviders {
  email: boolean;
  phone: boolean;
  oidc: { enabled: boolean; name: string };
  wechat: { enabled: boolean };
}

export const CODE_CHANNELS = ['email', 'phone'] as const;
/** Where a verification code is sent. */
export type CodeChannel = (typeof CODE_CHANNELS)[number];
/** What a verification code will be used for. */
export type CodePurpose = 'register' | 'login' | 'reset-password' | 'change-password' | 'bind';

/** The answer of POST /api/v1/auth/codes. */
export interface CodeSent {
  sentTo: string;
  expiresInSeconds: number;
  resendAfterSeconds: number;
}

/** A WeChat QR login attempt. */
export interface WechatQr {
  state: string;
  qrUrl: string;
  expiresAt: string;
}

/** Where a WeChat QR login attempt stands. */
export interface WechatQrStatus {
  status: 'pending' | 'confirmed' | 'bind_required' | 'expired';
  loginCode?: string;
}
