import { Alert, Button, Flex, Modal, Radio, Result, Spin, Typography } from "antd";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { refreshPrivileges } from "../../app/startup";
import { endpoints } from "../../lib/api/endpoints";
import { paymentEndpoints, type Order, type PaymentCatalogue, type Product, type ProviderName } from "../../lib/api/payments";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { sessionStore } from "../../lib/api/session";
import { phaseOf, shouldPoll } from "./buy-flow";

/** Props of {@link BuyDialog}. */
export interface BuyDialogProps {
  /** What is being bought and its title; undefined with `orderId` follows an order already opened (back from a redirect). */
  product?: Product;
  title: string;
  providers: PaymentCatalogue["providers"];
  /** An order to follow at once (Stripe's return). */
  orderId?: string;
  onClose: () => void;
}

/** A QR code of a payment address, drawn locally (the address never leaves the browser). */
function PaymentQr({ value }: { value: string }) {
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(value, { width: 220, margin: 1 }).then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [value]);
  return image ? <img src={image} width={220} height={220} alt="QR" data-testid="buy-qr" data-pay-url={value} /> : <Spin />;
}

/**
 * Buying one product: choose a provider among those configured, then pay by QR code (WeChat
 * Pay, Alipay) or on Stripe's page, while the order is polled until the server has fulfilled it.
 */
export function BuyDialog({ product, title, providers, orderId: initialOrderId, onClose }: BuyDialogProps) {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<ProviderName | undefined>(providers[0]?.name);
  const [orderId, setOrderId] = useState<string | undefined>(initialOrderId);
  const [creating, setCreating] = useState(false);
  const [failed, setFailed] = useState<string>();

  const order = useSpaceQuery<Order>({
    key: ["orders", "one", orderId],
    enabled: orderId !== undefined,
    fetch: (signal) => paymentEndpoints.order(orderId!, { signal, silent: true }),
  });
  const phase = phaseOf(order.data);
  const interval = shouldPoll(order.data);

  useEffect(() => {
    if (!interval) return;
    const timer = setInterval(() => void order.refetch(), interval);
    return () => clearInterval(timer);
  }, [interval, order]);

  useEffect(() => {
    if (phase !== "fulfilled") return;
    // The plan and the balance changed on the server: everything that shows them reloads.
    void invalidateSpace(["payments"], ["orders"], ["records"], ["credits"]);
    void endpoints.me.get({ silent: true }).then((me) => {
      if (me.ok) sessionStore.setUser(me.data);
      return refreshPrivileges();
    });
  }, [phase]);

  async function start() {
    if (!product || !provider) return;
    setCreating(true);
    setFailed(undefined);
    const result = await paymentEndpoints.createOrder({ product, provider });
    setCreating(false);
    if (!result.ok) {
      setFailed(result.error.message);
      return;
    }
    if (result.data.payUrl && providers.find((item) => item.name === provider)?.kind === "redirect") {
      window.location.assign(result.data.payUrl);
      return;
    }
    setOrderId(result.data.id);
  }

  async function cancel() {
    if (orderId && phase === "paying") await paymentEndpoints.cancelOrder(orderId, { silent: true });
    void invalidateSpace(["orders"]);
    onClose();
  }

  const current = order.data;
  return (
    <Modal open title={title} onCancel={() => void cancel()} footer={null} destroyOnHidden data-testid="buy-dialog">
      {!orderId ? (
        <Flex vertical gap={16}>
          <Typography.Text>{t("billing.buy.chooseProvider")}</Typography.Text>
          <Radio.Group value={provider} onChange={(event) => setProvider(event.target.value as ProviderName)} data-testid="buy-providers">
            <Flex vertical gap={8}>
              {providers.map((item) => (
                <Radio key={item.name} value={item.name} data-testid={`buy-provider-${item.name}`}>
                  {t(`billing.providers.${item.name}`)}
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
          {failed ? <Alert type="error" message={failed} showIcon data-testid="buy-error" /> : null}
          <Button type="primary" loading={creating} disabled={!provider} onClick={() => void start()} data-testid="buy-confirm">
            {t("billing.buy.pay")}
          </Button>
        </Flex>
      ) : !current ? (
        <Spin />
      ) : phase === "paying" ? (
        <Flex vertical align="center" gap={12} data-testid="buy-paying">
          {current.payUrl && current.provider !== "stripe" ? <PaymentQr value={current.payUrl} /> : null}
          <Typography.Text>
            {current.provider === "stripe" ? t("billing.buy.waitingRedirect") : t("billing.buy.scan", { provider: t(`billing.providers.${current.provider}`) })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t("billing.orders.number")}: <span data-testid="buy-order-number">{current.number}</span>
          </Typography.Text>
          <Typography.Text type="secondary">{t("billing.buy.waiting")}</Typography.Text>
        </Flex>
      ) : phase === "fulfilled" ? (
        <Result
          status="success"
          title={t("billing.buy.success")}
          subTitle={
            current.productType === "plan"
              ? t("billing.buy.planActive", { plan: t(`price.planNames.${current.planCode}`) })
              : t("billing.buy.creditsAdded", { credits: current.credits })
          }
          extra={
            <Button type="primary" onClick={onClose} data-testid="buy-done">
              {t("billing.buy.done")}
            </Button>
          }
          data-testid="buy-success"
        />
      ) : (
        <Result
          status="warning"
          title={t(`billing.status.${current.status}`)}
          extra={<Button onClick={onClose}>{t("billing.buy.done")}</Button>}
          data-testid="buy-closed"
        />
      )}
    </Modal>
  );
}
