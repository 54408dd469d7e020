import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useSession } from "../../lib/api/session";
import { PageHeader } from "../../components/page-header";
import { PageLoader } from "../../components/page-loader";
import { ApiKeysTab } from "./api-keys-tab";
import { OutboxTab } from "./outbox-tab";
import { PlanTab } from "./plan-tab";
import { ProfileTab } from "./profile-tab";
import { CreditsTab, UsageTab } from "./records-tabs";
import { BalanceAlertTab, BillingRulesTab } from "../benefits/account-tabs";

import { PaymentRecordsTab } from "../payments/payment-records-tab";
import { RechargeTab } from "../payments/recharge-tab";

const TABS = ["profile", "plan", "apiKeys", "credits", "recharge", "payments", "usage", "billingRules", "balanceAlert", "outbox"] as const;
type AccountTab = (typeof TABS)[number];

function isTab(value: string | null): value is AccountTab {
  return value !== null && (TABS as readonly string[]).includes(value);
}

/** My account: profile, plan and usage, API keys, the credits, payment and usage records, and (instance owner) the outbox. */
export function AccountPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  if (!user) return <PageLoader />;
  // The outbox is the instance owner's alone.
  const tab: AccountTab = isTab(requested) && (requested !== "outbox" || user.isInstanceOwner) ? requested : "profile";

  return (
    <div data-testid="account-page">
      <PageHeader title={t("account.title")} subtitle={t("account.subtitle")} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "profile" ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: "profile", label: <span data-testid="account-tab-profile">{t("account.tabs.profile")}</span>, children: <ProfileTab user={user} /> },
          { key: "plan", label: <span data-testid="account-tab-plan">{t("quota.tab")}</span>, children: <PlanTab /> },
          { key: "apiKeys", label: <span data-testid="account-tab-api-keys">{t("account.tabs.apiKeys")}</span>, children: <ApiKeysTab /> },
          {
            key: "credits",
            label: <span data-testid="account-tab-credits">{t("account.tabs.credits")}</span>,
            children: <CreditsTab />,
          },
          { key: "recharge", label: <span data-testid="account-tab-recharge">{t("billing.recharge.tab")}</span>, children: <RechargeTab /> },
          { key: "payments", label: <span data-testid="account-tab-payments">{t("account.tabs.payments")}</span>, children: <PaymentRecordsTab /> },
          {
            key: "usage",
            label: <span data-testid="account-tab-usage">{t("account.tabs.usage")}</span>,
            children: <UsageTab />,
          },
          {
            key: "billingRules",
            label: <span data-testid="account-tab-billing-rules">{t("billingRules.tab")}</span>,
            children: <BillingRulesTab />,
          },
          {
            key: "balanceAlert",
            label: <span data-testid="account-tab-balance-alert">{t("balanceAlert.tab")}</span>,
            children: <BalanceAlertTab />,
          },
          ...(user.isInstanceOwner
            ? [{ key: "outbox", label: <span data-testid="account-tab-outbox">{t("account.tabs.outbox")}</span>, children: <OutboxTab /> }]
            : []),
        ]}
      />
    </div>
  );
}
