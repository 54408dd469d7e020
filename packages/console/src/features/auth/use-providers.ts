import { useEffect, useState } from 'react';
import { endpoints } from '../../lib/api/endpoints';
import type { AuthProviders } from '../../lib/api/types';

const FALLBACK: AuthProviders = { email: true, phone: false, oidc: { enabled: false, name: '' }, wechat: { enabled: false } };
let cached: AuthProviders | undefined;

/** The sign-in methods this instance offers (fetched once per visit; e-mail only until known). */
export function useProviders(): AuthProviders {
  const [providers, setProviders] = useState<AuthProviders>(cached ?? FALLBACK);
  useEffect(() => {
    if (cached) return undefined;
    const controller = new AbortController();
    void endpoints.auth.providers({ silent: true, signal: controller.signal }).then((result) => {
      if (result.ok) {
        cached = result.data;
        setProviders(result.data);
      }
    });
    return () => controller.abort();
  }, []);
  return providers;
}
