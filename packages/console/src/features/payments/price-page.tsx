import { CheckOutlined, MailOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Col, Flex, Row, Segmented, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { PageLoader } from "../../components/page-loader";
import { paymentEndpoints, type PaymentCatalogue } from "../../lib/api/payments";
import { useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { PATHS } from "../../lib/paths";
import { BuyDialog } from "./buy-dialog";
import { displayCurrency, formatMoney, offeredPlans, providersFor, yearlySaving } from "./buy-flow";

type Plan = PaymentCatalogue["plans"][number];
type Period = "month" | "year";

const SHOWN_QUOTAS = ["apps", "workflows", "knowledgeEntries", "databaseRows", "clients", "members"] as const;

/** The catalogue, cached per space (a guest's under no space). */
export function useCatalogue() {
  const { user } = useSession();
  return useSpaceQuery<PaymentCatalogue>({ key: ["payments", "catalogue"], fetch: (signal) => paymentEndpoints.catalogue(Boolean(user), { signal }) });
}

/**
 * /console/price: the plans with their monthly or yearly price (a year is ten months), the
 * current plan marked, and Buy → provider → QR code or redirect → followed until paid. With no
 * provider configured, "contact sales" writes to the instance's address.
 */
export function PricePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [period, setPeriod] = useState<Period>("month");
  const [buying, setBuying] = useState<Plan>();
  const catalogue = useCatalogue();
  const returningOrder = params.get("order") ?? undefined;

  if (!catalogue.data) return <PageLoader />;
  const data = catalogue.data;
  const currency = displayCurrency(data.providers);
  const providers = data.providers.filter((provider) => providersFor(data.providers, currency).includes(provider.name));
  const currentCode = data.current?.code;

  const priceOf = (plan: Plan) => (period === "year" ? plan.yearlyPrices[currency] : plan.monthlyPrices[currency]);

  const action = (plan: Plan) => {
    if (plan.monthlyPrices[currency] === 0) return null;
    if (providers.length === 0) {
      return data.salesEmail ? (
        <Button
          icon={<MailOutlined />}
          href={`mailto:${data.salesEmail}?subject=${encodeURIComponent(`Parley ${plan.code}`)}`}
          block
          data-testid={`price-contact-${plan.code}`}
        >
          {t("price.contactSales")}
        </Button>
      ) : (
        <Typography.Text type="secondary">{user?.isInstanceOwner ? t("price.grantInInstance") : t("price.askAdministrator")}</Typography.Text>
      );
    }
    const renewing = currentCode === plan.code;
    return (
      <Button
        type={renewing ? "default" : "primary"}
        block
        onClick={() => (user ? setBuying(plan) : navigate(`${PATHS.login}?redirect=${encodeURIComponent(PATHS.price)}`))}
        data-testid={`price-buy-${plan.code}`}
      >
        {renewing ? t("price.renew") : t("price.buy")}
      </Button>
    );
  };

  return (
    <div data-testid="price-page">
      <PageHeader title={t("price.title")} subtitle={t("price.subtitle")} />
      <Flex justify="center" align="center" gap={12} style={{ marginBottom: 24 }}>
        <Segmented<Period>
          value={period}
          onChange={setPeriod}
          options={[
            { value: "month", label: <span data-testid="price-period-month">{t("price.monthly")}</span> },
            { value: "year", label: <span data-testid="price-period-year">{t("price.yearly")}</span> },
          ]}
        />
        <Tag color="green">{t("price.twoMonthsFree")}</Tag>
      </Flex>
      {currentCode && !offeredPlans(data).some((plan) => plan.code === currentCode) ? (
        // A plan the price page does not sell (Custom, arranged with the administrator) is still named.
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="price-current-unlisted"
          message={t("price.currentUnlisted", { plan: t(`price.planNames.${currentCode}`) })}
        />
      ) : null}
      <Row gutter={[16, 16]}>
        {offeredPlans(data).map((plan) => {
          const isCurrent = currentCode === plan.code;
          return (
            <Col key={plan.code} xs={24} sm={12} lg={6}>
              <Card
                title={t(`price.planNames.${plan.code}`)}
                extra={
                  isCurrent ? (
                    <Tag color="gold" data-testid="price-current">
                      {t("price.current")}
                    </Tag>
                  ) : null
                }
                style={isCurrent ? { borderColor: "#faad14", boxShadow: "0 0 0 1px #faad14" } : undefined}
                data-testid={`price-plan-${plan.code}`}
                data-current={isCurrent ? "true" : "false"}
              >
                <Flex vertical gap={8}>
                  <Typography.Title level={3} style={{ margin: 0 }} data-testid={`price-amount-${plan.code}`}>
                    {formatMoney(priceOf(plan), currency, i18n.language)}
                    <Typography.Text type="secondary"> / {period === "year" ? t("price.perYear") : t("price.perMonth")}</Typography.Text>
                  </Typography.Title>
                  {period === "year" && plan.monthlyPrices[currency] > 0 ? (
                    <Typography.Text type="success" data-testid={`price-saving-${plan.code}`}>
                      {t("price.saving", { amount: formatMoney(yearlySaving(plan.monthlyPrices[currency]), currency, i18n.language) })}
                    </Typography.Text>
                  ) : null}
                  {plan.includedCredits > 0 ? <Typography.Text>{t("price.includedCredits", { credits: plan.includedCredits })}</Typography.Text> : null}
                  {SHOWN_QUOTAS.map((quota) => (
                    <Typography.Text key={quota}>
                      <CheckOutlined /> {t(`price.quotas.${quota}`, { count: plan.quotas[quota] ?? 0 })}
                    </Typography.Text>
                  ))}
                  {isCurrent && data.current?.expiresAt ? (
                    <Typography.Text type="secondary" data-testid="price-expires">
                      {t("price.expires", { date: new Date(data.current.expiresAt).toLocaleDateString(i18n.language) })}
                    </Typography.Text>
                  ) : null}
                  {action(plan)}
                </Flex>
              </Card>
            </Col>
          );
        })}
      </Row>
      {buying ? (
        <BuyDialog
          product={{ type: "plan", planCode: buying.code, period }}
          title={t("price.buyTitle", { plan: t(`price.planNames.${buying.code}`), period: period === "year" ? t("price.yearly") : t("price.monthly") })}
          providers={providers}
          onClose={() => {
            setBuying(undefined);
            void catalogue.refetch();
          }}
        />
      ) : null}
      {returningOrder && user ? (
        <BuyDialog
          title={t("price.title")}
          providers={providers}
          orderId={returningOrder}
          onClose={() => {
            setParams({}, { replace: true });
            void catalogue.refetch();
          }}
        />
      ) : null}
    </div>
  );
}
