import { Button, Card, Col, Flex, Row, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageLoader } from "../../components/page-loader";
import type { PaymentCatalogue } from "../../lib/api/payments";
import { BuyDialog } from "./buy-dialog";
import { displayCurrency, formatMoney, providersFor } from "./buy-flow";
import { useCatalogue } from "./price-page";

type Pack = PaymentCatalogue["packs"][number];

/** My account → Recharge: the credit packs, bought through the same flow as plans. */
export function RechargeTab() {
  const { t, i18n } = useTranslation();
  const catalogue = useCatalogue();
  const [buying, setBuying] = useState<Pack>();
  if (!catalogue.data) return <PageLoader />;
  const data = catalogue.data;
  const currency = displayCurrency(data.providers);
  const providers = data.providers.filter((provider) => providersFor(data.providers, currency).includes(provider.name));
  return (
    <div className="pl-card" data-testid="recharge-tab">
      {providers.length === 0 ? (
        <Typography.Paragraph type="secondary" data-testid="recharge-unavailable">
          {data.salesEmail ? t("billing.recharge.unavailableMail", { email: data.salesEmail }) : t("billing.recharge.unavailable")}
        </Typography.Paragraph>
      ) : null}
      <Row gutter={[16, 16]}>
        {data.packs.map((pack) => (
          <Col key={pack.code} xs={24} sm={8}>
            <Card data-testid={`recharge-pack-${pack.code}`}>
              <Flex vertical gap={8} align="center">
                <Typography.Title level={3} style={{ margin: 0 }}>
                  {t("billing.recharge.credits", { credits: pack.credits.toLocaleString(i18n.language) })}
                </Typography.Title>
                <Typography.Text>{formatMoney(pack.prices[currency], currency, i18n.language)}</Typography.Text>
                <Button type="primary" disabled={providers.length === 0} onClick={() => setBuying(pack)} data-testid={`recharge-buy-${pack.code}`}>
                  {t("billing.recharge.buy")}
                </Button>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
      {buying ? (
        <BuyDialog
          product={{ type: "credits", packCode: buying.code }}
          title={t("billing.recharge.title", { credits: buying.credits })}
          providers={providers}
          onClose={() => setBuying(undefined)}
        />
      ) : null}
    </div>
  );
}
