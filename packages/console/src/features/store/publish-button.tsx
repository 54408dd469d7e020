import { CloudUploadOutlined } from "@ant-design/icons";
import { Alert, Button, Modal, Radio, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { type Publishing, storeEndpoints } from "../../lib/api/store";
import { STORE_KEYS } from "./use-store-actions";

/**
 * The Publish button of the app and workflow editors: publish to the store or the team's square, or unpublish.
 * A refusal shows the server's message on the field it names (the default avatar, a short
 * description or opening introduction, no category); a take-down shows the administrator's reason.
 */
export function PublishButton({ appId, workflowId, appName, disabled }: { appId?: string; workflowId?: string; appName: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [audience, setAudience] = useState<"store" | "square">("store");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ field?: string | undefined; message: string }>();
  const subject = workflowId
    ? {
        id: workflowId,
        state: storeEndpoints.workflowPublishing,
        publish: storeEndpoints.publishWorkflow,
        unpublish: storeEndpoints.unpublishWorkflow,
      }
    : { id: appId ?? "", state: storeEndpoints.publishing, publish: storeEndpoints.publish, unpublish: storeEndpoints.unpublish };
  const key = ["store", "publishing", subject.id];
  const state = useSpaceQuery<Publishing | null>({ key, fetch: (signal) => subject.state(subject.id, { silent: true, signal }), enabled: open });

  const done = async () => {
    await invalidateSpace(key, STORE_KEYS.list, STORE_KEYS.square);
  };
  const publish = async () => {
    setBusy(true);
    setRefusal(undefined);
    const result = await subject.publish(subject.id, audience);
    setBusy(false);
    if (!result.ok) {
      setRefusal({ field: result.error.field, message: result.error.message });
      return;
    }
    await done();
  };
  const unpublish = async () => {
    setBusy(true);
    const result = await subject.unpublish(subject.id);
    setBusy(false);
    if (result.ok) await done();
  };
  const current = state.data;

  return (
    <>
      <Button icon={<CloudUploadOutlined />} disabled={disabled} onClick={() => setOpen(true)} data-testid="app-publish">
        {t("store.publish")}
      </Button>
      <Modal
        open={open}
        title={t("store.publishTitle", { name: appName })}
        onCancel={() => setOpen(false)}
        footer={
          <Space>
            {current ? (
              <Button danger loading={busy} onClick={() => void unpublish()} data-testid="app-unpublish">
                {t("store.unpublish")}
              </Button>
            ) : null}
            <Button type="primary" loading={busy} onClick={() => void publish()} data-testid="app-publish-confirm">
              {t("store.publish")}
            </Button>
          </Space>
        }
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: "100%" }}>
          {current && !current.takenDown ? (
            <Alert
              type="success"
              showIcon
              message={`${t("store.published")}: ${current.audience === "store" ? t("store.audienceStore") : t("store.audienceSquare")}`}
              data-testid="app-publish-state"
            />
          ) : null}
          {current?.takenDown ? (
            <Alert type="warning" showIcon message={t("store.takenDown", { reason: current.takedownReason ?? "" })} data-testid="app-publish-taken-down" />
          ) : null}
          <Typography.Text>{t("store.audience")}</Typography.Text>
          <Radio.Group value={audience} onChange={(event) => setAudience(event.target.value as "store" | "square")} data-testid="app-publish-audience">
            <Radio value="store">{t("store.audienceStore")}</Radio>
            <Radio value="square">{t("store.audienceSquare")}</Radio>
          </Radio.Group>
          {refusal ? <Alert type="error" showIcon message={refusal.message} data-testid={`app-publish-error-${refusal.field ?? "general"}`} /> : null}
        </Space>
      </Modal>
    </>
  );
}
