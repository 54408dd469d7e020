import { Button, Modal, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PATHS } from "../lib/paths";
import { type UpgradeDetail, upgradePrompt, upgradeTextKeys } from "../lib/upgrade";

/**
 * The upgrade dialog every 701 answer opens (spec §6, §8): which quota or feature, the plan the
 * space runs on, and the way to the price page. Render once inside the router.
 */
export function UpgradeDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [detail, setDetail] = useState<UpgradeDetail | null>(null);
  useEffect(() => upgradePrompt.subscribe(setDetail), []);
  if (!detail) return null;
  const keys = upgradeTextKeys(detail);
  const params = Object.fromEntries(Object.entries(keys.whatParams).map(([name, value]) => [name, typeof value === "string" ? t(value) : value]));
  const close = () => setDetail(null);
  return (
    <Modal
      open
      title={<span data-testid="upgrade-dialog-title">{t("upgrade.title")}</span>}
      onCancel={close}
      footer={[
        <Button key="later" onClick={close} data-testid="upgrade-dialog-later">
          {t("upgrade.later")}
        </Button>,
        <Button
          key="plans"
          type="primary"
          data-testid="upgrade-dialog-plans"
          onClick={() => {
            close();
            void navigate(PATHS.price);
          }}
        >
          {t("upgrade.seePlans")}
        </Button>,
      ]}
    >
      <div data-testid="upgrade-dialog">
        <Typography.Paragraph data-testid="upgrade-dialog-what">{t(keys.what, params)}</Typography.Paragraph>
        {keys.plan ? (
          <Typography.Paragraph type="secondary" data-testid="upgrade-dialog-plan">
            {t("upgrade.currentPlan", { plan: t(keys.plan) })}
          </Typography.Paragraph>
        ) : null}
        <Typography.Paragraph type="secondary">{detail.message}</Typography.Paragraph>
      </div>
    </Modal>
  );
}
