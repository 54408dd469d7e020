import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, useRouteError } from "react-router";

/** Whether an error comes from a screen's code failing to load (a new release, a dropped connection). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message)
  );
}

/** Shown when a screen throws or its code cannot be loaded; offers a reload. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  if (!chunk) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  return (
    <div className="pl-standalone">
      <Result
        status={chunk ? "warning" : "error"}
        title={chunk ? t("errors.chunkTitle") : t("errors.crashTitle")}
        subTitle={chunk ? t("errors.chunkDescription") : t("errors.crashDescription", { status: status ?? "" })}
        extra={
          <Button type="primary" onClick={() => window.location.reload()} data-testid="error-reload">
            {t("common.refresh")}
          </Button>
        }
      />
    </div>
  );
}
