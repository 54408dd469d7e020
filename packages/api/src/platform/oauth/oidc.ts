import * as client from "openid-client";
import { ExternalProviderError, type ExternalIdentity, type OidcClient } from "../ports.js";

/** A relying-party registration at an OpenID Connect provider. */
export interface OidcClientConfig {
  /** Issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Defaults to `openid email profile`; `openid` is always requested. */
  scopes?: string[];
  /** Allow an `http:` issuer, for local providers in development and tests. */
  allowInsecureHttp?: boolean;
  /** How the secret is sent to the token endpoint; defaults to HTTP Basic, the OAuth 2.0 default. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
  fetch?: typeof fetch;
}

type Claims = Record<string, unknown>;

/**
 * An {@link OidcClient} using authorization code with PKCE (S256), `state` and `nonce`,
 * verifying the ID token against the provider's published keys. The provider's metadata is
 * discovered on first use and kept; a failed discovery is retried on the next call.
 * Claims missing from the ID token (email, name, picture) are read from the userinfo endpoint.
 * The redirect URI must not carry its own query string: the token request derives
 * `redirect_uri` from it without the query.
 */
export function createOidcClient(config: OidcClientConfig): OidcClient {
  const scopes = new Set(["openid", ...(config.scopes ?? ["email", "profile"])]);
  let discovered: Promise<client.Configuration> | undefined;

  const configuration = () => {
    discovered ??= discover(config).catch((error: unknown) => {
      discovered = undefined;
      throw toProviderError("discovery", error);
    });
    return discovered;
  };

  return {
    async authorizationUrl({ redirectUri }) {
      const settings = await configuration();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(settings, {
        redirect_uri: redirectUri,
        scope: [...scopes].join(" "),
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finish({ callbackUrl, redirectUri, state, nonce, codeVerifier }) {
      const settings = await configuration();
      // The library takes the token request's redirect_uri from the URL it is given, so the
      // callback's parameters are replayed onto the registered URI rather than trusting the
      // URL the request arrived on (which a proxy may have rewritten).
      const current = new URL(redirectUri);
      new URL(callbackUrl).searchParams.forEach((value, key) => current.searchParams.append(key, value));

      let claims: Claims;
      try {
        const tokens = await client.authorizationCodeGrant(settings, current, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        claims = { ...(tokens.claims() as Claims) };
        const subject = String(claims.sub);
        const incomplete = ["email", "name", "picture"].some((claim) => claims[claim] === undefined);
        if (incomplete && settings.serverMetadata().userinfo_endpoint) {
          const userInfo = (await client.fetchUserInfo(settings, tokens.access_token, subject)) as Claims;
          claims = { ...userInfo, ...claims };
        }
      } catch (error) {
        throw toProviderError("callback", error);
      }
      return toIdentity(claims);
    },
  };
}

async function discover(config: OidcClientConfig): Promise<client.Configuration> {
  const authentication =
    config.tokenEndpointAuthMethod === "client_secret_post" ? client.ClientSecretPost(config.clientSecret) : client.ClientSecretBasic(config.clientSecret);
  // By default the library trusts an ID token fetched over TLS without checking its signature;
  // non-repudiation checks make it verify the JWS against the provider's JWKS as well.
  const execute = [client.enableNonRepudiationChecks];
  if (config.allowInsecureHttp) execute.push(client.allowInsecureRequests);
  const options: client.DiscoveryRequestOptions = { execute };
  if (config.fetch) options[client.customFetch] = config.fetch as client.CustomFetch;
  return client.discovery(new URL(config.issuer), config.clientId, undefined, authentication, options);
}

function toIdentity(claims: Claims): ExternalIdentity {
  const identity: ExternalIdentity = { provider: "oidc", subject: String(claims.sub) };
  if (typeof claims.email === "string") identity.email = claims.email;
  // Some providers (Cognito among them) send the boolean as a string.
  if (claims.email_verified !== undefined) identity.emailVerified = claims.email_verified === true || claims.email_verified === "true";
  if (typeof claims.name === "string") identity.name = claims.name;
  if (typeof claims.picture === "string") identity.avatarUrl = claims.picture;
  return identity;
}

/** Keeps the protocol's error code and description; never the request, which holds the client secret. */
function toProviderError(step: "discovery" | "callback", error: unknown): ExternalProviderError {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description}` : "";
    return new ExternalProviderError("oidc", `OIDC ${step} refused: ${error.error}${description}`, {
      step,
      error: error.error,
    });
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const parameters = error.cause[0]?.parameters;
    const code = parameters?.error ?? `http_${error.status}`;
    const description = parameters?.error_description ? `: ${parameters.error_description}` : "";
    return new ExternalProviderError("oidc", `OIDC ${step} refused: ${code}${description}`, { step, error: code });
  }
  const source = error as { message?: unknown; code?: unknown; cause?: unknown };
  const cause = source.cause instanceof Error ? ` (${source.cause.message})` : "";
  const message = typeof source.message === "string" ? source.message : "unknown error";
  return new ExternalProviderError("oidc", `OIDC ${step} failed: ${message}${cause}`, {
    step,
    code: typeof source.code === "string" ? source.code : undefined,
  });
}
