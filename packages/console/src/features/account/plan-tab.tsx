import { Button, Card, Descriptions, Flex, Progress, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { plansEndpoints, type QuotaUsage } from "../../lib/api/plans";
import { useSpaceQuery } from "../../lib/api/query";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { PageLoader } from "../../components/page-loader";
import { EmptyState } from "../../components/empty-state";

/** Share of a quota used, for the bar (a zero quota counts as full once anything is used). */
export function usagePercent({ used, limit }: Pick<QuotaUsage, "used" | "limit">): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / limit) * 100));
}

/** My account's "Plan & usage": the plan the space runs on, until when, and each quota's use. */
export function PlanTab() {
  const { t } = useTranslation();
  const { i18n } = useTranslation();
  const query = useSpaceQuery({ key: ["plan", "current"], fetch: (signal) => plansEndpoints.current({ signal }) });
  if (query.isPending) return <PageLoader />;
  if (!query.data) return <EmptyState title={t("quota.loadFailed")} data-testid="plan-usage-failed" />;
  const plan = query.data;
  return (
    <Card data-testid="plan-usage">
      <Flex justify="space-between" align="start" wrap gap={16}>
        <Descriptions
          column={1}
          items={[
            { key: "plan", label: t("quota.plan"), children: <strong data-testid="plan-usage-name">{t(`quota.plans.${plan.planCode}`)}</strong> },
            {
              key: "expires",
              label: t("quota.expiresAt"),
              children: <span data-testid="plan-usage-expires">{plan.expiresAt ? formatDateTime(plan.expiresAt, i18n.language) : t("quota.noEnd")}</span>,
            },
          ]}
        />
        <Link to={PATHS.price}>
          <Button type="primary" data-testid="plan-usage-upgrade">
            {t("upgrade.seePlans")}
          </Button>
        </Link>
      </Flex>
      <Typography.Title level={5}>{t("quota.usageTitle")}</Typography.Title>
      {plan.usage.map((entry) => (
        <div key={entry.quota} data-testid={`plan-usage-${entry.quota}`}>
          <Flex justify="space-between">
            <span>{t(`quota.names.${entry.quota}`)}</span>
            <span>{t("quota.usedOf", { used: entry.used.toLocaleString(), limit: entry.limit.toLocaleString() })}</span>
          </Flex>
          <Progress percent={usagePercent(entry)} showInfo={false} status={entry.used >= entry.limit && entry.limit > 0 ? "exception" : "normal"} />
        </div>
      ))}
    </Card>
  );
}
