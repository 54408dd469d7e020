import { Button, Flex, Form, Input, InputNumber, Popconfirm, Radio, Select, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { paymentEndpoints, type Order, type OrderPage } from "../../lib/api/payments";
import { useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { OrderDrawer, useOrderColumns } from "./payment-records-tab";

const PAGE_SIZE = 20;
const PLAN_CODES = ["pro", "team", "enterprise", "custom"] as const;

interface GrantForm {
  spaceId: string;
  kind: "plan" | "credits";
  planCode: (typeof PLAN_CODES)[number];
  period: "month" | "year";
  credits: number;
  note?: string;
}

/** The administrator's grant of a plan period or credits to a space, recorded as a manual order. */
function GrantCard({ onGranted }: { onGranted: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GrantForm>();
  const kind = Form.useWatch("kind", form) ?? "plan";
  const [saving, setSaving] = useState(false);
  const spaces = useSpaceQuery({ key: ["instance", "grant-spaces"], fetch: (signal) => endpoints.instance.spaces({ pageNo: 1, pageSize: 100 }, { signal }) });

  async function submit(values: GrantForm) {
    setSaving(true);
    const result = await paymentEndpoints.grant({
      spaceId: values.spaceId,
      ...(values.kind === "plan" ? { product: { type: "plan" as const, planCode: values.planCode, period: values.period } } : { credits: values.credits }),
      ...(values.note ? { note: values.note } : {}),
    });
    setSaving(false);
    if (!result.ok) return;
    feedback.success(t("billing.admin.granted", { number: result.data.number }));
    form.resetFields(["note", "credits"]);
    onGranted();
  }

  return (
    <Form<GrantForm>
      form={form}
      layout="inline"
      initialValues={{ kind: "plan", planCode: "pro", period: "month", credits: 1000 }}
      onFinish={(values) => void submit(values)}
      data-testid="grant-form"
    >
      <Form.Item name="spaceId" rules={[{ required: true, message: t("billing.admin.spaceRequired") }]}>
        <Select
          showSearch
          optionFilterProp="label"
          style={{ width: 240 }}
          placeholder={t("billing.admin.space")}
          options={(spaces.data?.items ?? []).map((space) => ({
            value: space.spaceId,
            label: `${space.companyName} (${space.ownerEmail ?? space.ownerName})`,
          }))}
          data-testid="grant-space"
        />
      </Form.Item>
      <Form.Item name="kind">
        <Radio.Group
          options={[
            { value: "plan", label: t("billing.admin.kindPlan") },
            { value: "credits", label: t("billing.admin.kindCredits") },
          ]}
        />
      </Form.Item>
      {kind === "plan" ? (
        <>
          <Form.Item name="planCode">
            <Select
              style={{ width: 140 }}
              options={PLAN_CODES.map((code) => ({ value: code, label: t(`price.planNames.${code}`) }))}
              data-testid="grant-plan"
            />
          </Form.Item>
          <Form.Item name="period">
            <Select
              style={{ width: 110 }}
              options={[
                { value: "month", label: t("billing.periods.month") },
                { value: "year", label: t("billing.periods.year") },
              ]}
            />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="credits" rules={[{ required: true }]}>
          <InputNumber min={1} max={100_000_000} precision={0} data-testid="grant-credits" />
        </Form.Item>
      )}
      <Form.Item name="note">
        <Input placeholder={t("billing.admin.note")} maxLength={500} style={{ width: 200 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="grant-submit">
        {t("billing.admin.grant")}
      </Button>
    </Form>
  );
}

/** Instance → Orders: grants, and every order of the instance with refunds of fulfilled ones. */
export function InstanceOrdersTab() {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const [open, setOpen] = useState<Order>();
  const columns = useOrderColumns();
  const list = useSpaceQuery<OrderPage>({
    key: ["instance", "orders", pageNo],
    keepPreviousPage: true,
    fetch: (signal) => paymentEndpoints.instanceOrders(pageNo, PAGE_SIZE, { signal }),
  });

  async function refund(order: Order) {
    const result = await paymentEndpoints.refund(order.id, {});
    if (!result.ok) return;
    feedback.success(t("billing.admin.refunded", { number: order.number }));
    void list.refetch();
  }

  return (
    <Flex vertical gap={16} data-testid="instance-orders">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t("billing.admin.grantTitle")}
      </Typography.Title>
      <Typography.Text type="secondary">{t("billing.admin.grantHelp")}</Typography.Text>
      <GrantCard onGranted={() => void list.refetch()} />
      <Table<Order>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        columns={[
          ...columns,
          {
            title: t("billing.admin.actions"),
            key: "actions",
            render: (_, order) => (
              <Flex gap={4}>
                <Button type="link" onClick={() => setOpen(order)}>
                  {t("billing.orders.detail")}
                </Button>
                {order.status === "fulfilled" ? (
                  <Popconfirm title={t("billing.admin.refundConfirm", { number: order.number })} onConfirm={() => void refund(order)}>
                    <Button danger type="link" data-testid={`order-refund-${order.id}`}>
                      {t("billing.admin.refund")}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Flex>
            ),
          },
        ]}
        pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, hideOnSinglePage: true, onChange: setPageNo }}
      />
      <OrderDrawer order={open} onClose={() => setOpen(undefined)} />
    </Flex>
  );
}
