import { call, type CallOptions } from './api';
import type {
  ApiKeySummary, AuthProviders, CodeChannel, CodePurpose, CodeSent, CreatedApiKey, Privileges, Session, SpaceEntry, User,
  WechatQr, WechatQrStatus,
} from './types';

type Extra = Pick<CallOptions, 'silent' | 'startup' | 'signal' | 'dedupeKey'>;

/** Where a newly registered or exchanged account came from (spec §7 start-up calls). */
export interface Attribution {
  share?: string;
  source?: string;
  sourceDetail?: string;
}

/** Every call the console shell makes, each with its own types. */
export const endpoints = {
  auth: {
    providers: (extra: Extra = {}) => call<AuthProviders>('GET', '/api/v1/auth/providers', { public: true, ...extra }),
    sendCode: (body: { channel: CodeChannel; target: string; purpose: CodePurpose }, extra: Extra = {}) =>
      call<CodeSent>('POST', '/api/v1/auth/codes', { public: body.purpose !== 'change-password', body, ...extra }),
    register: (
      body: { channel: CodeChannel; target: string; code: string; password: string; name?: string; inviteParam?: string } & Attribution,
      extra: Extra = {},
    ) => call<Session>('POST', '/api/v1/auth/register', { public: true, body, ...extra }),
    resetPassword: (body: { channel: CodeChannel; target: string; code: string; password: string }, extra: Extra = {}) =>
      call<Record<string, never>>('POST', '/api/v1/auth/password/reset', { public: true, body, ...extra }),
    loginWithPassword: (form: { username: string; password: string }, extra: Extra = {}) =>
      call<Session>('POST', '/api/v1/auth/login', { public: true, form, ...extra }),
    loginWithCode: (body: { channel: CodeChannel; target: string; code: string }, extra: Extra = {}) =>
      call<Session>('POST', '/api/v1/auth/login/code', { public: true, body, ...extra }),
    exchange: (body: { code?: string; loginCode?: string } & Attribution, extra: Extra = {}) =>
      call<Session>('POST', '/api/v1/auth/exchange', { public: true, body, ...extra }),
    wechatQr: (extra: Extra = {}) => call<WechatQr>('POST', '/api/v1/auth/wechat/qr', { public: true, ...extra }),
    wechatQrStatus: (state: string, extra: Extra = {}) =>
      call<WechatQrStatus>('GET', '/api/v1/auth/wechat/qr/{state}', { public: true, params: { path: { state } }, ...extra }),
    wechatBind: (body: { state: string; channel: CodeChannel; target: string; code: string }, extra: Extra = {}) =>
      call<Session>('POST', '/api/v1/auth/wechat/bind', { public: true, body, ...extra }),
    logout: (extra: Extra = {}) => call<Record<string, never>>('POST', '/api/v1/auth/logout', extra),
    /** The address that starts an external (OIDC) sign-in; the browser navigates to it. */
    oidcAuthorizeUrl: (returnTo: string) => `/api/v1/auth/oidc/authorize?returnTo=${encodeURIComponent(returnTo)}`,
  },
  me: {
    get: (extra: Extra = {}) => call<User>('GET', '/api/v1/me', extra),
    update: (body: { name?: string; avatarUrl?: string; language?: string }, extra: Extra = {}) =>
      call<User>('PATCH', '/api/v1/me', { body, ...extra }),
    changePassword: (body: { oldPassword: string; newPassword: string; code: string }, extra: Extra = {}) =>
      call<Record<string, never>>('POST', '/api/v1/me/password', { body, ...extra }),
    spaces: (extra: Extra = {}) => call<SpaceEntry[]>('GET', '/api/v1/me/spaces', extra),
    apiKeys: (extra: Extra = {}) => call<ApiKeySummary[]>('GET', '/api/v1/me/api-keys', { dedupeKey: 'api-keys', ...extra }),
    createApiKey: (body: { name: string }, extra: Extra = {}) => call<CreatedApiKey>('POST', '/api/v1/me/api-keys', { body, ...extra }),
    deleteApiKey: (id: string, extra: Extra = {}) =>
      call<Record<string, never>>('DELETE', '/api/v1/me/api-keys/{id}', { params: { path: { id } }, ...extra }),
  },
  spaces: {
    create: (body: { companyName: string }, extra: Extra = {}) => call<SpaceEntry>('POST', '/api/v1/spaces', { body, ...extra }),
    select: (spaceId: string, extra: Extra = {}) =>
      call<User>('POST', '/api/v1/spaces/{spaceId}/select', { params: { path: { spaceId } }, ...extra }),
  },
  privileges: (memberGrade: string, extra: Extra = {}) =>
    call<Privileges>('GET', '/api/v1/privileges', { params: { query: { memberGrade } }, dedupeKey: 'privileges', ...extra }),
};
