import { createApp, openApiInfo } from "./app";
import { loadConfig } from "./config";
import type { Deps } from "./kernel";
import { createLogger } from "./logger";

/**
 * The OpenAPI 3.1 document of every route, without a server URL. Building it touches no
 * storage or provider: routes are only described, never called.
 */
export function buildOpenApiDocument() {
  const unused = () => {
    throw new Error("not available while describing routes");
  };
  const deps = {
    config: loadConfig({}),
    db: new Proxy({}, { get: unused }),
    logger: createLogger("silent"),
    mail: { kind: "outbox", send: unused },
    sms: { kind: "outbox", send: unused },
    oidc: undefined,
    wechat: undefined,
    throttle: { hit: unused, peek: unused, reset: unused, count: unused, undo: unused },
    now: () => new Date(),
  } as unknown as Deps;
  const app = createApp({ ...deps, config: { ...deps.config, consoleDir: undefined } });
  return app.getOpenAPI31Document(openApiInfo());
}
