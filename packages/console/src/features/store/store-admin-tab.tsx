import { Button, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { type InstanceListing, storeEndpoints } from "../../lib/api/store";
import { formatDateTime } from "../../lib/format";
import { STORE_KEYS } from "./use-store-actions";

const KEYS = { listings: ["instance", "store-listings"], settings: ["instance", "store-settings"] } as const;

/**
 * The instance page's Store tab: the guest limits of store apps, and every listing with a
 * take-down whose reason the publisher sees.
 */
export function StoreAdminTab() {
  const { t, i18n } = useTranslation();
  const listings = useSpaceQuery({ key: KEYS.listings, fetch: (signal) => storeEndpoints.instanceListings({ signal }) });
  const settings = useSpaceQuery({ key: KEYS.settings, fetch: (signal) => storeEndpoints.instanceSettings({ signal }) });
  const [form] = Form.useForm<{ guestMessagesPerHour: number; guestSessionsPerHour: number }>();
  const [target, setTarget] = useState<InstanceListing>();
  const [reason, setReason] = useState("");
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = async () => {
    const values = await form.validateFields();
    if ((await storeEndpoints.saveInstanceSettings(values)).ok) await invalidateSpace(KEYS.settings);
  };
  const takeDown = async () => {
    if (!target) return;
    if ((await storeEndpoints.takeDown(target.listingId, reason)).ok) {
      setTarget(undefined);
      setReason("");
      await invalidateSpace(KEYS.listings, STORE_KEYS.list, STORE_KEYS.square);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }} data-testid="store-admin">
      <Form form={form} layout="inline" onFinish={() => void save()}>
        <Form.Item name="guestMessagesPerHour" label={t("store.admin.messagesPerHour")} rules={[{ required: true }]}>
          <InputNumber min={1} max={10_000} precision={0} data-testid="store-admin-messages" />
        </Form.Item>
        <Form.Item name="guestSessionsPerHour" label={t("store.admin.sessionsPerHour")} rules={[{ required: true }]}>
          <InputNumber min={1} max={10_000} precision={0} data-testid="store-admin-sessions" />
        </Form.Item>
        <Button type="primary" htmlType="submit" data-testid="store-admin-save">
          {t("common.save")}
        </Button>
      </Form>
      <Table<InstanceListing>
        rowKey="listingId"
        size="small"
        loading={listings.isPending}
        dataSource={listings.data ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: t("store.admin.name"), dataIndex: "name", key: "name" },
          { title: t("store.admin.kind"), key: "kind", render: (_, row) => (row.kind === "app" ? t("store.kindApp") : t("store.workflow")) },
          {
            title: t("store.audience"),
            key: "audience",
            render: (_, row) => (row.audience === "store" ? t("store.audienceStore") : t("store.audienceSquare")),
          },
          { title: t("store.admin.publishedAt"), key: "publishedAt", render: (_, row) => formatDateTime(row.publishedAt, i18n.language) },
          {
            title: t("store.admin.state"),
            key: "state",
            render: (_, row) =>
              row.takenDown ? (
                <Typography.Text type="danger">{t("store.takenDown", { reason: row.takedownReason ?? "" })}</Typography.Text>
              ) : (
                <Tag color="green">{t("store.published")}</Tag>
              ),
          },
          {
            title: "",
            key: "actions",
            render: (_, row) =>
              row.takenDown ? null : (
                <Button danger size="small" onClick={() => setTarget(row)} data-testid={`store-admin-take-down-${row.listingId}`}>
                  {t("store.admin.takeDown")}
                </Button>
              ),
          },
        ]}
      />
      <Modal
        open={target !== undefined}
        title={t("store.admin.takeDownTitle", { name: target?.name ?? "" })}
        okText={t("store.admin.takeDown")}
        okButtonProps={{ danger: true, disabled: !reason.trim() }}
        onOk={() => void takeDown()}
        onCancel={() => setTarget(undefined)}
      >
        <Input.TextArea
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
          placeholder={t("store.admin.reason")}
          data-testid="store-admin-reason"
        />
      </Modal>
    </Space>
  );
}
