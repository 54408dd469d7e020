import { Spin } from "antd";
import { useTranslation } from "react-i18next";

/** The placeholder shown while a screen's code loads. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="pl-page-loader" role="status" aria-live="polite">
      <Spin size="large" />
      <span className="pl-visually-hidden">{t("common.loading")}</span>
    </div>
  );
}
