import { KeyOutlined, PlusOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Card, DatePicker, Form, Input, InputNumber, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { ApiKeyRevealModal } from "../../components/api-key-reveal-modal";
import { CrudTable } from "../../components/crud-table";
import { FormDialog } from "../../components/form-dialog";
import { keyColumns } from "../../components/key-columns";

type UserKey = components["schemas"]["UserKey"];
interface CreateFields {
  name: string;
  appCode?: string;
  creditLimit?: number | null;
  /** The date picker's value (a dayjs instance). */
  expiresAt?: { toISOString(): string } | null;
}

const USER_KEYS = ["user-keys"];

/** Keys the space hands to its end users for the OpenAI-compatible API: limited to an app, credits and time. */
export function UserKeysCard() {
  const { t, i18n } = useTranslation();
  const keys = useSpaceQuery({ key: USER_KEYS, fetch: (signal) => endpoints.userKeys.list({ signal }) });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ name: string; key: string }>();
  const [form] = Form.useForm<CreateFields>();

  const setEnabled = async (key: UserKey, enabled: boolean) => {
    const result = await endpoints.userKeys.update(key.id, { enabled });
    if (result.ok) setSpaceData<UserKey[]>(USER_KEYS, (current) => current?.map((item) => (item.id === key.id ? result.data : item)));
  };

  const remove = async (key: UserKey) => {
    const result = await endpoints.userKeys.remove(key.id);
    if (!result.ok) return;
    feedback.success(t("apiKeys.deleted", { name: key.name }));
    await invalidateSpace(USER_KEYS);
  };

  const expired = (key: UserKey) => key.expiresAt !== null && new Date(key.expiresAt).getTime() < Date.now();

  return (
    <Card
      className="pl-card-plain"
      title={t("apiAccess.userKeys.title")}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="user-key-create">
          {t("apiAccess.userKeys.create")}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t("apiAccess.userKeys.intro")}</Typography.Paragraph>
      <CrudTable<UserKey>
        rowKey="id"
        query={keys}
        data-testid="user-key-table"
        scroll={{ x: "max-content" }}
        failed={{ title: t("apiKeys.loadFailedTitle"), "data-testid": "user-key-load-failed" }}
        empty={{
          icon: <KeyOutlined className="pl-empty__glyph" />,
          title: t("apiAccess.userKeys.emptyTitle"),
          description: t("apiAccess.userKeys.emptyDescription"),
          "data-testid": "user-key-empty",
        }}
        remove={{ run: remove, name: (key) => key.name, testId: (key) => `user-key-delete-${key.id}`, title: t("apiKeys.columns.actions") }}
        columns={[
          ...keyColumns<UserKey>(t),
          {
            key: "appCode",
            title: t("apiAccess.userKeys.app"),
            dataIndex: "appCode",
            render: (code: string | null) =>
              code ? <Typography.Text code>{code}</Typography.Text> : <Typography.Text type="secondary">{t("apiAccess.userKeys.anyApp")}</Typography.Text>,
          },
          {
            key: "credits",
            title: t("apiAccess.userKeys.credits"),
            render: (_value, key) =>
              key.creditLimit === null
                ? t("apiAccess.userKeys.usedNoLimit", { used: key.creditsUsed })
                : t("apiAccess.userKeys.usedOfLimit", { used: key.creditsUsed, limit: key.creditLimit }),
          },
          {
            key: "expiresAt",
            title: t("apiAccess.userKeys.expires"),
            render: (_value, key) =>
              key.expiresAt === null ? (
                <Typography.Text type="secondary">{t("apiAccess.userKeys.never")}</Typography.Text>
              ) : (
                <span>
                  {formatDateTime(key.expiresAt, i18n.language)} {expired(key) ? <Tag color="red">{t("apiAccess.userKeys.expired")}</Tag> : null}
                </span>
              ),
          },
          {
            key: "lastUsedAt",
            title: t("apiKeys.columns.lastUsed"),
            dataIndex: "lastUsedAt",
            render: (value: string | null) =>
              value ? formatDateTime(value, i18n.language) : <Typography.Text type="secondary">{t("apiKeys.neverUsed")}</Typography.Text>,
          },
          {
            key: "enabled",
            title: t("apiAccess.userKeys.enabled"),
            render: (_value, key) => (
              <Switch checked={key.enabled} onChange={(checked) => void setEnabled(key, checked)} data-testid={`user-key-enabled-${key.id}`} />
            ),
          },
        ]}
      />
      <FormDialog<CreateFields>
        open={creating}
        form={form}
        title={t("apiAccess.userKeys.createTitle")}
        okText={t("apiKeys.createSubmit")}
        submitTestId="user-key-create-submit"
        requiredMark={false}
        onClose={() => setCreating(false)}
        onSubmit={async ({ name, appCode, creditLimit, expiresAt }) => {
          const result = await endpoints.userKeys.create({
            name: name.trim(),
            appCode: appCode?.trim() ? appCode.trim() : null,
            creditLimit: creditLimit ?? null,
            expiresAt: expiresAt ? expiresAt.toISOString() : null,
          });
          if (!result.ok) {
            if (result.error.field) form.setFields([{ name: result.error.field as keyof CreateFields, errors: [result.error.message] }]);
            return false;
          }
          const { key, ...summary } = result.data;
          setCreating(false);
          setRevealed({ name: summary.name, key });
          await invalidateSpace(USER_KEYS);
          return true;
        }}
      >
        <Form.Item name="name" label={t("apiKeys.nameLabel")} rules={[{ required: true, whitespace: true, message: t("apiKeys.nameRequired") }, { max: 50 }]}>
          <Input autoFocus maxLength={50} placeholder={t("apiAccess.userKeys.namePlaceholder")} data-testid="user-key-name" />
        </Form.Item>
        <Form.Item name="appCode" label={t("apiAccess.userKeys.appCode")} extra={t("apiAccess.userKeys.appCodeHint")}>
          <Input data-testid="user-key-app" />
        </Form.Item>
        <Form.Item name="creditLimit" label={t("apiAccess.userKeys.creditLimit")} extra={t("apiAccess.userKeys.creditLimitHint")}>
          <InputNumber min={0} precision={0} style={{ width: "100%" }} data-testid="user-key-limit" />
        </Form.Item>
        <Form.Item name="expiresAt" label={t("apiAccess.userKeys.expiresAt")} extra={t("apiAccess.userKeys.expiresAtHint")}>
          <DatePicker showTime style={{ width: "100%" }} data-testid="user-key-expires" />
        </Form.Item>
      </FormDialog>
      <ApiKeyRevealModal revealed={revealed} onClose={() => setRevealed(undefined)} />
    </Card>
  );
}
