import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";
import type { AuthProviders } from "../../lib/api/types";

const FALLBACK: AuthProviders = { email: true, phone: false, oidc: { enabled: false, name: "" }, wechat: { enabled: false } };

/** The sign-in methods this instance offers (fetched once per visit; e-mail only until known). */
export function useProviders(): AuthProviders {
  const { data } = useSpaceQuery({ key: ["auth-providers"], staleTime: Infinity, fetch: (signal) => endpoints.auth.providers({ silent: true, signal }) });
  return data ?? FALLBACK;
}
