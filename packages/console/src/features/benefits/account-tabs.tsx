import { Alert, Button, Card, Checkbox, Flex, Form, InputNumber, Switch, Table, Typography } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { NotifyMemberSelect } from "../team/notify-member-select";
import { type AlertChannel, benefitsEndpoints } from "../../lib/api/benefits";
import { useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { balanceAlertRules } from "./benefits-rules";
import type { components } from "@parley/sdk";

type ModelPrice = components["schemas"]["ModelPrice"];
const CHANNELS: AlertChannel[] = ["in-app", "email", "sms"];

/** Billing rules: the model price table chat turns are charged by, as the server holds it. */
export function BillingRulesTab() {
  const { t } = useTranslation();
  const rules = useSpaceQuery({ key: ["billing-rules"], staleTime: Number.POSITIVE_INFINITY, fetch: (signal) => benefitsEndpoints.billingRules({ signal }) });
  return (
    <Card className="pl-card-plain" title={t("billingRules.title")}>
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("billingRules.description")}
        </Typography.Paragraph>
        <Table<ModelPrice>
          rowKey="model"
          size="small"
          loading={rules.isFetching}
          dataSource={rules.data?.prices ?? []}
          pagination={false}
          data-testid="billing-rules-table"
          columns={[
            { key: "model", title: t("billingRules.model"), dataIndex: "model", render: (value: string) => <Typography.Text code>{value}</Typography.Text> },
            { key: "prompt", title: t("billingRules.prompt"), dataIndex: "prompt", align: "right" },
            { key: "completion", title: t("billingRules.completion"), dataIndex: "completion", align: "right" },
          ]}
        />
        {rules.data ? (
          <Typography.Text type="secondary" data-testid="billing-rules-default">
            {t("billingRules.otherModels", { prompt: rules.data.defaultPrice.prompt, completion: rules.data.defaultPrice.completion })}
          </Typography.Text>
        ) : null}
      </Flex>
    </Card>
  );
}

interface AlertForm {
  enabled: boolean;
  threshold: number | null;
  channels: AlertChannel[];
  notifyMemberIds?: string[];
}

/** Balance alert: the threshold and where the notice goes (owner or admin may change it). */
export function BalanceAlertTab() {
  const { t, i18n } = useTranslation();
  const { nowSelect } = useSession();
  const canEdit = nowSelect?.role !== "member";
  const [form] = Form.useForm<AlertForm>();
  const alert = useSpaceQuery({ key: ["balance-alert"], fetch: (signal) => benefitsEndpoints.balanceAlert({ signal }) });
  useEffect(() => {
    if (alert.data) {
      form.setFieldsValue({
        enabled: alert.data.threshold === null ? true : alert.data.enabled,
        threshold: alert.data.threshold,
        channels: alert.data.channels,
        notifyMemberIds: alert.data.notifyMemberIds,
      });
    }
  }, [alert.data, form]);
  const save = useSpaceMutation({
    run: (values: AlertForm) =>
      benefitsEndpoints.saveBalanceAlert({
        threshold: values.threshold,
        channels: values.channels,
        enabled: values.enabled,
        ...(values.notifyMemberIds ? { notifyMemberIds: values.notifyMemberIds } : {}),
      }),
    invalidates: [["balance-alert"]],
    onSuccess: () => feedback.success(t("balanceAlert.saved")),
  });
  const reject = (key: string | undefined) => (key ? Promise.reject(new Error(t(key))) : Promise.resolve());
  return (
    <Card className="pl-card-plain" title={t("balanceAlert.title")}>
      <Flex vertical gap={16} style={{ maxWidth: 560 }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("balanceAlert.description")}
        </Typography.Paragraph>
        {alert.data?.fired ? (
          <Alert
            type="warning"
            showIcon
            message={t("balanceAlert.fired", { time: formatDateTime(alert.data.firedAt, i18n.language) })}
            data-testid="balance-alert-fired"
          />
        ) : null}
        {!canEdit ? <Alert type="info" showIcon message={t("balanceAlert.readOnly")} /> : null}
        <Form<AlertForm>
          form={form}
          layout="vertical"
          disabled={!canEdit}
          initialValues={{ enabled: true, threshold: null, channels: ["in-app"] }}
          onFinish={(values) => save.mutate(values)}
          data-testid="balance-alert-form"
        >
          <Form.Item name="enabled" label={t("balanceAlert.enabled")} valuePropName="checked">
            <Switch data-testid="balance-alert-enabled" />
          </Form.Item>
          <Form.Item
            name="threshold"
            label={t("balanceAlert.threshold")}
            required
            extra={t("balanceAlert.thresholdHelp")}
            rules={[{ validator: async (_rule, value: number | null) => reject(balanceAlertRules.threshold(value)) }]}
          >
            <InputNumber precision={0} style={{ width: 200 }} data-testid="balance-alert-threshold" />
          </Form.Item>
          <Form.Item
            name="channels"
            label={t("balanceAlert.channels")}
            required
            rules={[{ validator: async (_rule, value: AlertChannel[]) => reject(balanceAlertRules.channels(value)) }]}
          >
            <Checkbox.Group
              options={CHANNELS.map((channel) => ({ value: channel, label: t(`balanceAlert.channelNames.${channel}`) }))}
              data-testid="balance-alert-channels"
            />
          </Form.Item>
          {nowSelect?.kind === "team" ? (
            <Form.Item name="notifyMemberIds" label={t("balanceAlert.members")} extra={t("balanceAlert.membersHelp")}>
              <NotifyMemberSelect />
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="balance-alert-save">
            {t("common.save")}
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}
