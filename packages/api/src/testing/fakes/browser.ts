/** Where a {@link Browser} navigation ended. */
export interface BrowserVisit {
  /** The last URL reached (or the URL `stopAt` matched, which was then not requested). */
  url: URL;
  /** The last response, absent when `stopAt` stopped the navigation. */
  response?: Response;
  /** Every URL visited after the first, in order. */
  redirects: URL[];
}

/** Options for {@link Browser.open}. */
export interface BrowserOpenOptions {
  method?: "GET" | "POST";
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Stops before requesting a redirect target for which this returns true (e.g. the app's callback). */
  stopAt?: (url: URL) => boolean;
  /** Defaults to 20. */
  maxRedirects?: number;
}

/** A minimal cookie-keeping, redirect-following HTTP client that behaves like a browser tab. */
export interface Browser {
  open(url: string | URL, options?: BrowserOpenOptions): Promise<BrowserVisit>;
  /** Cookies currently stored for a host name (ports share cookies, as in browsers). */
  cookies(hostname: string): Record<string, string>;
}

/**
 * Creates a {@link Browser} for driving redirect-based sign-in flows (OIDC, WeChat) in tests,
 * where the provider's session cookies must survive across redirects.
 */
export function createBrowser(): Browser {
  const jar = new Map<string, Map<string, string>>();

  const store = (url: URL, response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const equals = pair.indexOf("=");
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", attributeValue = ""] = attribute.split("=").map((part) => part.trim());
        if (key.toLowerCase() === "max-age") return Number(attributeValue) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(attributeValue) <= Date.now();
        return false;
      });
      const cookies = jar.get(url.hostname) ?? new Map<string, string>();
      jar.set(url.hostname, cookies);
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const cookieHeader = (url: URL) => [...(jar.get(url.hostname) ?? new Map<string, string>()).entries()].map(([name, value]) => `${name}=${value}`).join("; ");

  return {
    async open(start, options = {}) {
      let url = new URL(start);
      let method = options.method ?? (options.form ? "POST" : "GET");
      let body: string | undefined = options.form ? new URLSearchParams(options.form).toString() : undefined;
      const redirects: URL[] = [];
      for (let hop = 0; ; hop++) {
        const headers: Record<string, string> = { ...options.headers };
        const cookie = cookieHeader(url);
        if (cookie) headers.cookie = cookie;
        if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
        const response = await fetch(url, { method, headers, body, redirect: "manual" });
        store(url, response);
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || !location) return { url, response, redirects };
        if (hop >= (options.maxRedirects ?? 20)) throw new Error(`too many redirects, last ${url.toString()}`);
        await response.body?.cancel();
        url = new URL(location, url);
        redirects.push(url);
        if (options.stopAt?.(url)) return { url, redirects };
        if (response.status !== 307 && response.status !== 308) {
          method = "GET";
          body = undefined;
        }
      }
    },
    cookies(hostname) {
      return Object.fromEntries(jar.get(hostname) ?? new Map<string, string>());
    },
  };
}
