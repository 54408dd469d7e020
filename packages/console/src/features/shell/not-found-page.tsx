import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PATHS } from "../../lib/paths";
import { useSession } from "../../lib/api/session";

/** The 404 page, with a way back home (the console for members, the store for guests). */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = useSession();
  return (
    <div className="pl-standalone">
      <Result
        status="404"
        title={t("notFound.title")}
        subTitle={t("notFound.description")}
        extra={
          <Button type="primary" size="large" onClick={() => navigate(token ? PATHS.agents : PATHS.home, { replace: true })} data-testid="not-found-home">
            {t("notFound.backHome")}
          </Button>
        }
      />
    </div>
  );
}
