import { ReloadOutlined } from "@ant-design/icons";
import { Button, Flex, Select, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";
import { ChatPanel } from "../../components/chat/chat-panel";
import { imageAware, usePendingFiles } from "../../components/chat/use-pending-files";
import { CHAT_KEYS, useChat } from "../chat/use-chat";

/** Props of {@link PreviewPane}. */
export interface PreviewPaneProps {
  appCode: string;
  /** The editor has changes the preview does not use yet. */
  unsaved: boolean;
}

/** The editor's live preview: a chat with the saved app on the `preview` channel. */
export function PreviewPane({ appCode, unsaved }: PreviewPaneProps) {
  const { t } = useTranslation();
  // A save invalidates the view (the editor), which reloads the opening text and models.
  const view = useSpaceQuery({ key: CHAT_KEYS.app(appCode), fetch: (signal) => endpoints.chat.app(appCode, { silent: true, signal }) }).data;
  const [chosenModel, setModel] = useState<string>();
  // A model the saved app no longer offers falls back to its default.
  const model = chosenModel && view && !view.models.includes(chosenModel) ? undefined : chosenModel;
  const chat = useChat({ appCode, channel: "preview", model });
  const files = usePendingFiles(imageAware(chat.uploadFile, model ?? view?.defaultModel, view?.imageModels));

  return (
    <aside className="pl-editor__preview" data-testid="app-preview">
      <ChatPanel
        appName={view?.name ?? ""}
        appAvatarUrl={view?.avatarUrl}
        openingText={view?.openingText}
        guidingQuestions={view?.guidingQuestions ?? []}
        turns={chat.turns}
        streaming={chat.streaming}
        onSend={(text, attached) => void chat.send(text, attached)}
        files={files}
        onStop={chat.stop}
        onClearContext={() => void chat.clearContext()}
        testIdPrefix="preview"
        header={
          <div className="pl-editor__preview-title">
            <Flex align="center" gap={8}>
              <Typography.Text strong>{t("apps.preview.title")}</Typography.Text>
              {unsaved ? (
                <Tag color="warning" data-testid="preview-unsaved">
                  {t("apps.preview.unsaved")}
                </Tag>
              ) : null}
            </Flex>
            <Flex align="center" gap={4}>
              {view && view.models.length > 1 ? (
                <Select
                  size="small"
                  value={model ?? view.defaultModel}
                  onChange={setModel}
                  options={view.models.map((id) => ({ value: id, label: id }))}
                  popupMatchSelectWidth={false}
                  data-testid="preview-model"
                />
              ) : null}
              <Tooltip title={t("apps.preview.restart")}>
                <Button
                  type="text"
                  size="small"
                  icon={<ReloadOutlined />}
                  onClick={() => {
                    chat.reset();
                    files.clear();
                  }}
                  aria-label={t("apps.preview.restart")}
                  data-testid="preview-restart"
                />
              </Tooltip>
            </Flex>
          </div>
        }
        footer={view?.bottomSlogan ?? undefined}
      />
    </aside>
  );
}
