import { ReloadOutlined } from "@ant-design/icons";
import { Button, Descriptions, Drawer, Flex, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { paymentEndpoints, type Order, type OrderPage } from "../../lib/api/payments";
import { useSpaceQuery } from "../../lib/api/query";
import { formatDateTime } from "../../lib/format";
import { formatMoney } from "./buy-flow";

const PAGE_SIZE = 20;
const STATUS_COLORS: Record<Order["status"], string> = { created: "blue", paid: "cyan", fulfilled: "green", closed: "default", refunded: "orange" };

/** What an order sold, in words. */
export function useProductLabel() {
  const { t } = useTranslation();
  return (order: Order) =>
    order.productType === "plan"
      ? t("billing.orders.planProduct", { plan: t(`price.planNames.${order.planCode}`), period: t(`billing.periods.${order.period}`) })
      : t("billing.orders.creditsProduct", { credits: order.credits });
}

/** An order's detail, in a drawer. */
export function OrderDrawer({ order, onClose }: { order: Order | undefined; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const productLabel = useProductLabel();
  return (
    <Drawer
      open={order !== undefined}
      onClose={onClose}
      title={order ? t("billing.orders.detailTitle", { number: order.number }) : ""}
      width={520}
      data-testid="order-drawer"
    >
      {order ? (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t("billing.orders.number")}>{order.number}</Descriptions.Item>
          <Descriptions.Item label={t("billing.orders.product")}>{productLabel(order)}</Descriptions.Item>
          <Descriptions.Item label={t("billing.orders.amount")}>{formatMoney(order.amount, order.currency, i18n.language)}</Descriptions.Item>
          <Descriptions.Item label={t("billing.orders.provider")}>{t(`billing.providers.${order.provider}`)}</Descriptions.Item>
          <Descriptions.Item label={t("billing.orders.status")}>
            <Tag color={STATUS_COLORS[order.status]} data-testid="order-drawer-status">
              {t(`billing.status.${order.status}`)}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t("billing.orders.createdAt")}>{formatDateTime(order.createdAt, i18n.language)}</Descriptions.Item>
          {order.paidAt ? <Descriptions.Item label={t("billing.orders.paidAt")}>{formatDateTime(order.paidAt, i18n.language)}</Descriptions.Item> : null}
          {order.granted ? (
            <Descriptions.Item label={t("billing.orders.granted")}>
              {order.granted.plan ? t("billing.orders.grantedPlan", { date: formatDateTime(order.granted.plan.expiresAt, i18n.language) }) : null}{" "}
              {order.granted.credits > 0 ? t("billing.orders.grantedCredits", { credits: order.granted.credits }) : null}
            </Descriptions.Item>
          ) : null}
          {order.granted?.refund ? (
            <Descriptions.Item label={t("billing.orders.refund")}>
              {t("billing.orders.refundDetail", { reversed: order.granted.refund.creditsReversed, short: order.granted.refund.creditsShort })}
            </Descriptions.Item>
          ) : null}
          {order.providerReference ? <Descriptions.Item label={t("billing.orders.reference")}>{order.providerReference}</Descriptions.Item> : null}
          {order.note ? <Descriptions.Item label={t("billing.orders.note")}>{order.note}</Descriptions.Item> : null}
        </Descriptions>
      ) : null}
    </Drawer>
  );
}

/** The columns orders are listed with (the space's records and the administrator's list). */
export function useOrderColumns() {
  const { t, i18n } = useTranslation();
  const productLabel = useProductLabel();
  return [
    {
      title: t("billing.orders.number"),
      key: "number",
      render: (_: unknown, order: Order) => <span data-testid={`order-number-${order.id}`}>{order.number}</span>,
    },
    { title: t("billing.orders.product"), key: "product", render: (_: unknown, order: Order) => productLabel(order) },
    { title: t("billing.orders.amount"), key: "amount", render: (_: unknown, order: Order) => formatMoney(order.amount, order.currency, i18n.language) },
    { title: t("billing.orders.provider"), key: "provider", render: (_: unknown, order: Order) => t(`billing.providers.${order.provider}`) },
    {
      title: t("billing.orders.status"),
      key: "status",
      render: (_: unknown, order: Order) => (
        <Tag color={STATUS_COLORS[order.status]} data-testid={`order-status-${order.id}`}>
          {t(`billing.status.${order.status}`)}
        </Tag>
      ),
    },
    { title: t("billing.orders.createdAt"), key: "createdAt", render: (_: unknown, order: Order) => formatDateTime(order.createdAt, i18n.language) },
  ];
}

/** My account → Payment records: the space's orders, each opening its detail. */
export function PaymentRecordsTab() {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const [open, setOpen] = useState<Order>();
  const columns = useOrderColumns();
  const list = useSpaceQuery<OrderPage>({
    key: ["orders", "list", pageNo],
    keepPreviousPage: true,
    fetch: (signal) => paymentEndpoints.orders(pageNo, PAGE_SIZE, { signal }),
  });
  return (
    <div className="pl-card" data-testid="payment-records">
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} data-testid="payment-records-reload">
          {t("billing.orders.reload")}
        </Button>
      </Flex>
      <Table<Order>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        columns={[
          ...columns,
          {
            title: "",
            key: "open",
            render: (_, order) => (
              <Button type="link" onClick={() => setOpen(order)} data-testid={`order-open-${order.id}`}>
                {t("billing.orders.detail")}
              </Button>
            ),
          },
        ]}
        pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, hideOnSinglePage: true, onChange: setPageNo }}
        locale={{ emptyText: t("billing.orders.empty") }}
      />
      <OrderDrawer order={open} onClose={() => setOpen(undefined)} />
    </div>
  );
}
