import { KeyOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Card, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import type { ApiKeySummary } from "../../lib/api/types";
import { ApiKeyRevealModal } from "../../components/api-key-reveal-modal";
import { CrudTable } from "../../components/crud-table";
import { FormDialog } from "../../components/form-dialog";
import { keyColumns } from "../../components/key-columns";

const API_KEYS = ["api-keys"];

/** Personal API keys: list with create and last-active times, create (shown once) and delete. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation();
  const keys = useSpaceQuery({ key: API_KEYS, fetch: (signal) => endpoints.me.apiKeys({ signal }) });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ name: string; key: string }>();

  const remove = async (key: ApiKeySummary) => {
    const result = await endpoints.me.deleteApiKey(key.id);
    if (!result.ok) return;
    feedback.success(t("apiKeys.deleted", { name: key.name }));
    await invalidateSpace(API_KEYS);
  };

  return (
    <Card
      className="pl-card-plain"
      title={t("apiKeys.title")}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="api-key-create">
          {t("apiKeys.create")}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t("apiKeys.intro")}</Typography.Paragraph>
      <CrudTable<ApiKeySummary>
        rowKey="id"
        query={keys}
        data-testid="api-key-table"
        failed={{
          title: t("apiKeys.loadFailedTitle"),
          description: t("apiKeys.loadFailedDescription"),
          retryTestId: "api-key-retry",
          "data-testid": "api-key-load-failed",
        }}
        empty={{
          icon: <KeyOutlined className="pl-empty__glyph" />,
          title: t("apiKeys.emptyTitle"),
          description: t("apiKeys.emptyDescription"),
          "data-testid": "api-key-empty",
        }}
        remove={{ run: remove, name: (key) => key.name, testId: (key) => `api-key-delete-${key.id}`, title: t("apiKeys.columns.actions") }}
        columns={[
          ...keyColumns<ApiKeySummary>(t),
          { key: "createdAt", title: t("apiKeys.columns.created"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
          {
            key: "lastUsedAt",
            title: t("apiKeys.columns.lastUsed"),
            dataIndex: "lastUsedAt",
            render: (value: string | null) =>
              value ? formatDateTime(value, i18n.language) : <Typography.Text type="secondary">{t("apiKeys.neverUsed")}</Typography.Text>,
          },
        ]}
      />
      <FormDialog<{ name: string }>
        open={creating}
        title={t("apiKeys.createTitle")}
        okText={t("apiKeys.createSubmit")}
        submitTestId="api-key-create-submit"
        requiredMark={false}
        onClose={() => setCreating(false)}
        onSubmit={async ({ name }) => {
          const result = await endpoints.me.createApiKey({ name: name.trim() });
          if (!result.ok) return false;
          const { key, ...summary } = result.data;
          setCreating(false);
          setRevealed({ name: summary.name, key });
          await invalidateSpace(API_KEYS);
          return true;
        }}
      >
        <Form.Item
          name="name"
          label={t("apiKeys.nameLabel")}
          extra={t("apiKeys.nameHint")}
          rules={[
            { required: true, whitespace: true, message: t("apiKeys.nameRequired") },
            { max: 50, message: t("auth.validation.nameLong", { max: 50 }) },
          ]}
        >
          <Input autoFocus maxLength={50} placeholder={t("apiKeys.namePlaceholder")} data-testid="api-key-name" />
        </Form.Item>
      </FormDialog>
      <ApiKeyRevealModal revealed={revealed} onClose={() => setRevealed(undefined)} />
    </Card>
  );
}
