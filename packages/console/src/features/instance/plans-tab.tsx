import { EditOutlined } from "@ant-design/icons";
import { Button, Form, InputNumber, Modal, Switch, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Plan, plansEndpoints, type QuotaKey } from "../../lib/api/plans";
import { useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";

/** The quotas of a plan, in the order the editor shows them. */
export const PLAN_QUOTA_KEYS: readonly QuotaKey[] = [
  "apps",
  "workflows",
  "knowledgeTokens",
  "knowledgeEntries",
  "databaseRows",
  "customPlugins",
  "clients",
  "members",
  "customerService",
];
/** Quotas counted in tokens or rows, which go far above the others. */
const LARGE_QUOTAS = new Set<QuotaKey>(["knowledgeTokens", "databaseRows"]);

type PlanForm = { CNY: number; USD: number; includedCredits: number; offered: boolean } & Record<QuotaKey, number>;

/** Formats an amount in a currency's smallest unit as the currency. */
function money(amount: number, currency: "CNY" | "USD", language: string): string {
  return new Intl.NumberFormat(language, { style: "currency", currency }).format(amount / 100);
}

function PlanEditor({ plan, onClose, onSaved }: { plan: Plan; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PlanForm>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    const result = await plansEndpoints.update(plan.code, {
      monthlyPrices: { CNY: Math.round(values.CNY * 100), USD: Math.round(values.USD * 100) },
      includedCredits: values.includedCredits,
      offered: values.offered,
      quotas: Object.fromEntries(PLAN_QUOTA_KEYS.map((key) => [key, values[key]])),
    });
    setSaving(false);
    if (!result.ok) {
      feedback.error(result.error.message);
      return;
    }
    feedback.success(t("instancePlans.saved", { plan: t(`quota.plans.${plan.code}`) }));
    onSaved();
  };
  const cents = { min: 0, max: 1_000_000, precision: 2, style: { width: "100%" } };
  return (
    <Modal
      open
      title={t("instancePlans.editTitle", { plan: t(`quota.plans.${plan.code}`) })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "instance-plan-save" } as Record<string, string>}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="instance-plan-form"
        initialValues={{
          CNY: plan.monthlyPrices.CNY / 100,
          USD: plan.monthlyPrices.USD / 100,
          includedCredits: plan.includedCredits,
          offered: plan.offered,
          ...plan.quotas,
        }}
      >
        <Form.Item name="CNY" label={t("instancePlans.monthlyCny")} required>
          <InputNumber {...cents} data-testid="instance-plan-CNY" />
        </Form.Item>
        <Form.Item name="USD" label={t("instancePlans.monthlyUsd")} required>
          <InputNumber {...cents} data-testid="instance-plan-USD" />
        </Form.Item>
        <Form.Item name="includedCredits" label={t("instancePlans.includedCredits")} required>
          <InputNumber min={0} max={100_000_000} precision={0} style={{ width: "100%" }} data-testid="instance-plan-credits" />
        </Form.Item>
        <Form.Item name="offered" label={t("instancePlans.offered")} valuePropName="checked">
          <Switch data-testid="instance-plan-offered" />
        </Form.Item>
        {PLAN_QUOTA_KEYS.map((key) => (
          <Form.Item key={key} name={key} label={t(`quota.names.${key}`)} required>
            <InputNumber
              min={0}
              max={LARGE_QUOTAS.has(key) ? 1_000_000_000_000 : 1_000_000}
              precision={0}
              style={{ width: "100%" }}
              data-testid={`instance-plan-${key}`}
            />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

/** The instance's plan catalogue: prices, included credits, quotas and whether each is offered. */
export function PlansTab() {
  const { t, i18n } = useTranslation();
  const query = useSpaceQuery({ key: ["instance", "plans"], fetch: (signal) => plansEndpoints.catalogue({ signal }) });
  const [editing, setEditing] = useState<Plan>();
  return (
    <>
      <Table<Plan>
        rowKey="code"
        loading={query.isFetching}
        dataSource={query.data?.plans ?? []}
        pagination={false}
        scroll={{ x: true }}
        data-testid="instance-plans"
        columns={[
          { title: t("instancePlans.plan"), key: "plan", render: (_, plan) => <strong>{t(`quota.plans.${plan.code}`)}</strong> },
          {
            title: t("instancePlans.monthly"),
            key: "monthly",
            render: (_, plan) => `${money(plan.monthlyPrices.CNY, "CNY", i18n.language)} / ${money(plan.monthlyPrices.USD, "USD", i18n.language)}`,
          },
          {
            title: t("instancePlans.yearly"),
            key: "yearly",
            render: (_, plan) => `${money(plan.yearlyPrices.CNY, "CNY", i18n.language)} / ${money(plan.yearlyPrices.USD, "USD", i18n.language)}`,
          },
          { title: t("instancePlans.includedCredits"), dataIndex: "includedCredits", key: "credits" },
          ...PLAN_QUOTA_KEYS.map((key) => ({
            title: t(`quota.names.${key}`),
            key,
            render: (_: unknown, plan: Plan) => <span data-testid={`instance-plan-${plan.code}-${key}`}>{plan.quotas[key].toLocaleString()}</span>,
          })),
          {
            title: t("instancePlans.offered"),
            key: "offered",
            render: (_, plan) => (plan.offered ? <Tag color="green">{t("instancePlans.yes")}</Tag> : <Tag>{t("instancePlans.no")}</Tag>),
          },
          {
            title: t("instance.columns.actions"),
            key: "actions",
            fixed: "right",
            render: (_, plan) => (
              <Button icon={<EditOutlined />} onClick={() => setEditing(plan)} data-testid={`instance-plan-edit-${plan.code}`}>
                {t("instance.edit")}
              </Button>
            ),
          },
        ]}
      />
      {editing ? (
        <PlanEditor
          plan={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void query.refetch();
          }}
        />
      ) : null}
    </>
  );
}
