import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "startup" | "signal" | "dedupeKey">;

/** Paging and search of the instance lists. */
export interface InstanceListQuery {
  pageNo?: number;
  pageSize?: number;
  keyword?: string;
}

/** Where a newly registered or exchanged account came from (spec §7 start-up calls). */
export type Attribution = Pick<Schemas["ExchangeRequest"], "share" | "source" | "sourceDetail">;

/** Every call the console shell makes; request and answer types come from the contract. */
export const endpoints = {
  auth: {
    providers: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/auth/providers", init)),
    /** Codes for change-password and bind go out signed in (to this account's or a new own address). */
    sendCode: (body: Schemas["SendCodeRequest"], extra: Extra = {}) =>
      call({ public: body.purpose !== "change-password" && body.purpose !== "bind", ...extra }, (init) => client.POST("/api/v1/auth/codes", { ...init, body })),
    register: (body: Schemas["RegisterRequest"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/register", { ...init, body })),
    resetPassword: (body: Schemas["ResetPasswordRequest"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/password/reset", { ...init, body })),
    /** Password sign-in is form-encoded (spec §7). */
    loginWithPassword: (body: Schemas["LoginForm"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/login", { ...init, body, form: true })),
    loginWithCode: (body: Schemas["LoginWithCodeRequest"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/login/code", { ...init, body })),
    exchange: (body: Schemas["ExchangeRequest"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/exchange", { ...init, body })),
    wechatQr: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/wechat/qr", init)),
    wechatQrStatus: (state: string, extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.GET("/api/v1/auth/wechat/qr/{state}", { ...init, params: { path: { state } } })),
    wechatBind: (body: Schemas["WechatBindRequest"], extra: Extra = {}) =>
      call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/wechat/bind", { ...init, body })),
    logout: (extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/auth/logout", init)),
    /** The address that starts an external (OIDC) sign-in; the browser navigates to it. */
    oidcAuthorizeUrl: (returnTo: string) => `/api/v1/auth/oidc/authorize?returnTo=${encodeURIComponent(returnTo)}`,
  },
  me: {
    get: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/me", init)),
    update: (body: Schemas["UpdateMeRequest"], extra: Extra = {}) => call(extra, (init) => client.PATCH("/api/v1/me", { ...init, body })),
    changePassword: (body: Schemas["ChangePasswordRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/password", { ...init, body })),
    /** Adds or replaces the e-mail or phone, proven by a code sent with purpose bind; answers the updated user. */
    bindContact: (body: Schemas["BindContactRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/contact", { ...init, body })),
    spaces: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/me/spaces", init)),
    apiKeys: (extra: Extra = {}) => call({ dedupeKey: "api-keys", ...extra }, (init) => client.GET("/api/v1/me/api-keys", init)),
    createApiKey: (body: Schemas["CreateApiKeyRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/api-keys", { ...init, body })),
    deleteApiKey: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/me/api-keys/{id}", { ...init, params: { path: { id } } })),
  },
  /** Apps of the current space (spec §3 App): list, detail, create, edit, copy, delete, reactions, advanced config, rate limits. */
  apps: {
    /** My apps: spec §7 lists them with page size 100 (the server's cap). */
    list: (pageNo = 1, extra: Extra = {}) =>
      call({ dedupeKey: "apps", ...extra }, (init) => client.GET("/api/v1/apps", { ...init, params: { query: { pageNo, pageSize: 100 } } })),
    /** Create answers silently: the form shows the server's message on the field it names (spec §8). */
    create: (body: Schemas["CreateAppRequest"], extra: Extra = {}) =>
      call({ silent: true, ...extra }, (init) => client.POST("/api/v1/apps", { ...init, body })),
    get: (appId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/apps/{appId}", { ...init, params: { path: { appId } } })),
    senior: (appId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/apps/{appId}/senior", { ...init, params: { path: { appId } } })),
    update: (appId: string, body: Schemas["UpdateAppRequest"], extra: Extra = {}) =>
      call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/apps/{appId}", { ...init, params: { path: { appId } }, body })),
    remove: (appId: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/apps/{appId}", { ...init, params: { path: { appId } } })),
    copy: (appId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/{appId}/copy", { ...init, params: { path: { appId } } })),
    upgrade: (appId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/{appId}/upgrade", { ...init, params: { path: { appId } } })),
    thumb: (appId: string, on: boolean, extra: Extra = {}) =>
      call(extra, (init) =>
        on
          ? client.POST("/api/v1/apps/{appId}/thumb", { ...init, params: { path: { appId } } })
          : client.DELETE("/api/v1/apps/{appId}/thumb", { ...init, params: { path: { appId } } }),
      ),
    collect: (appId: string, on: boolean, extra: Extra = {}) =>
      call(extra, (init) =>
        on
          ? client.POST("/api/v1/apps/{appId}/collect", { ...init, params: { path: { appId } } })
          : client.DELETE("/api/v1/apps/{appId}/collect", { ...init, params: { path: { appId } } }),
      ),
    advancedConfig: (appId: string, extra: Extra = {}) =>
      call(extra, (init) => client.GET("/api/v1/apps/{appId}/advanced-config", { ...init, params: { path: { appId } } })),
    saveAdvancedConfig: (appId: string, body: Schemas["AdvancedConfig"], extra: Extra = {}) =>
      call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/apps/{appId}/advanced-config", { ...init, params: { path: { appId } }, body })),
    rateLimits: (appId: string, extra: Extra = {}) =>
      call(extra, (init) => client.GET("/api/v1/apps/{appId}/rate-limits", { ...init, params: { path: { appId } } })),
    addRateLimit: (appId: string, body: Schemas["CreateRateLimitRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/apps/{appId}/rate-limits", { ...init, params: { path: { appId } }, body })),
    updateRateLimit: (id: string, body: Schemas["UpdateRateLimitRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/rate-limits/{id}", { ...init, params: { path: { id } }, body })),
    removeRateLimit: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/rate-limits/{id}", { ...init, params: { path: { id } } })),
    /** The space's knowledge bases an app may bind (the editor's knowledge section). */
    knowledgeBases: (extra: Extra = {}) => call({ dedupeKey: "app-knowledge-bases", ...extra }, (init) => client.GET("/api/v1/knowledge-bases", init)),
  },
  /** Localized app categories and role groups (public: the square shows them to guests). */
  appCatalogue: {
    categories: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/app-categories", init)),
    groups: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/app-groups", init)),
  },
  /** Chatting with an app: its chat view, conversations, messages and delete context (the stream is in features/chat/chat-stream). */
  chat: {
    app: (appCode: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/chat/apps/{appCode}", { ...init, params: { path: { appCode } } })),
    conversations: (appCode: string, extra: Extra = {}) =>
      call({ dedupeKey: `conversations-${appCode}`, ...extra }, (init) =>
        client.GET("/api/v1/chat/conversations", { ...init, params: { query: { appCode } } }),
      ),
    messages: (conversationId: string, extra: Extra = {}) =>
      call({ dedupeKey: "conversation-messages", ...extra }, (init) =>
        client.GET("/api/v1/chat/conversations/{conversationId}/messages", { ...init, params: { path: { conversationId } } }),
      ),
    clearContext: (conversationId: string, extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/chat/conversations/{conversationId}/clear-context", { ...init, params: { path: { conversationId } } })),
  },
  spaces: {
    create: (body: Schemas["CreateSpaceRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/spaces", { ...init, body })),
    select: (spaceId: string, extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/spaces/{spaceId}/select", { ...init, params: { path: { spaceId } } })),
  },
  /** Instance administration: users' grades and spaces' capabilities (the administrator only). */
  instance: {
    users: (query: InstanceListQuery, extra: Extra = {}) =>
      call({ dedupeKey: "instance-users", ...extra }, (init) => client.GET("/api/v1/instance/users", { ...init, params: { query } })),
    setUserGrade: (userId: string, body: Schemas["UpdateInstanceUserRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/instance/users/{userId}", { ...init, params: { path: { userId } }, body })),
    spaces: (query: InstanceListQuery, extra: Extra = {}) =>
      call({ dedupeKey: "instance-spaces", ...extra }, (init) => client.GET("/api/v1/instance/spaces", { ...init, params: { query } })),
    setSpaceCapabilities: (spaceId: string, body: Schemas["UpdateInstanceSpaceRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/instance/spaces/{spaceId}", { ...init, params: { path: { spaceId } }, body })),
  },
  /** Messages of the embedded outbox (instance owner only). */
  outbox: (extra: Extra = {}) =>
    call({ dedupeKey: "outbox", ...extra }, (init) => client.GET("/api/v1/outbox", { ...init, params: { query: { limit: "200" } } })),
  privileges: (memberGrade: Schemas["User"]["memberGrade"], extra: Extra = {}) =>
    call({ dedupeKey: "privileges", ...extra }, (init) => client.GET("/api/v1/privileges", { ...init, params: { query: { memberGrade } } })),
  /** Custom HTTP plugins, the built-ins, parse (OpenAPI or curl) and the test run. */
  plugins: {
    list: (extra: Extra = {}) => call({ dedupeKey: "plugins", ...extra }, (init) => client.GET("/api/v1/plugins", init)),
    builtin: (extra: Extra = {}) => call({ dedupeKey: "plugins-builtin", ...extra }, (init) => client.GET("/api/v1/plugins/builtin", init)),
    get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/plugins/{id}", { ...init, params: { path: { id } } })),
    create: (body: Schemas["PluginInput"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins", { ...init, body })),
    update: (id: string, body: Schemas["UpdatePluginRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/plugins/{id}", { ...init, params: { path: { id } }, body })),
    remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/plugins/{id}", { ...init, params: { path: { id } } })),
    setEnabled: (id: string, enabled: boolean, extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/plugins/{id}/enabled", { ...init, params: { path: { id } }, body: { enabled } })),
    parse: (body: Schemas["PluginParseRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins/parse", { ...init, body })),
    debug: (body: Schemas["PluginDebugRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins/debug", { ...init, body })),
  },
  /** The model catalogue and (instance owner only) the model providers. */
  models: {
    list: (extra: Extra = {}) => call({ dedupeKey: "models", ...extra }, (init) => client.GET("/api/v1/models", init)),
    providers: (extra: Extra = {}) => call({ dedupeKey: "model-providers", ...extra }, (init) => client.GET("/api/v1/model-providers", init)),
    createProvider: (body: Schemas["CreateModelProviderRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/model-providers", { ...init, body })),
    updateProvider: (id: string, body: Schemas["UpdateModelProviderRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/model-providers/{id}", { ...init, params: { path: { id } }, body })),
    deleteProvider: (id: string, extra: Extra = {}) =>
      call(extra, (init) => client.DELETE("/api/v1/model-providers/{id}", { ...init, params: { path: { id } } })),
    testProvider: (id: string, extra: Extra = {}) =>
      call(extra, (init) => client.POST("/api/v1/model-providers/{id}/test", { ...init, params: { path: { id } } })),
  },
  /** Keys for the OpenAI-compatible API that the space hands to its end users. */
  userKeys: {
    list: (extra: Extra = {}) => call({ dedupeKey: "user-keys", ...extra }, (init) => client.GET("/api/v1/user-keys", init)),
    create: (body: Schemas["UserKeyRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/user-keys", { ...init, body })),
    update: (id: string, body: Schemas["UpdateUserKeyRequest"], extra: Extra = {}) =>
      call(extra, (init) => client.PATCH("/api/v1/user-keys/{id}", { ...init, params: { path: { id } }, body })),
    remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/user-keys/{id}", { ...init, params: { path: { id } } })),
  },
  /** The space's credit balance, its ledger and the usage records (My account). */
  billing: {
    balance: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/credits", init)),
    ledger: (pageNo: number, pageSize: number, extra: Extra = {}) =>
      call({ dedupeKey: "credit-ledger", ...extra }, (init) => client.GET("/api/v1/credits/ledger", { ...init, params: { query: { pageNo, pageSize } } })),
    usage: (pageNo: number, pageSize: number, extra: Extra = {}) =>
      call({ dedupeKey: "usage-records", ...extra }, (init) => client.GET("/api/v1/usage-records", { ...init, params: { query: { pageNo, pageSize } } })),
  },
  /** The space's app codes, for the API-access snippets (first page of my apps). */
  apiAccessApps: (extra: Extra = {}) =>
    call({ dedupeKey: "api-access-apps", ...extra }, (init) => client.GET("/api/v1/apps", { ...init, params: { query: { pageSize: 100 } } })),
};
