import { ReloadOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Flex, Select, Tag, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { ChatPanel } from "../../components/chat/chat-panel";
import { useChat } from "../chat/use-chat";

type ChatAppView = components["schemas"]["ChatAppView"];

/** Props of {@link PreviewPane}. */
export interface PreviewPaneProps {
  appCode: string;
  /** Bumped after every save, to reload the opening text and models. */
  version: number;
  /** The editor has changes the preview does not use yet. */
  unsaved: boolean;
}

/** The editor's live preview: a chat with the saved app on the `preview` channel. */
export function PreviewPane({ appCode, version, unsaved }: PreviewPaneProps) {
  const { t } = useTranslation();
  const [view, setView] = useState<ChatAppView>();
  const [model, setModel] = useState<string>();
  const chat = useChat({ appCode, channel: "preview", model });

  useEffect(() => {
    let live = true;
    void endpoints.chat.app(appCode, { silent: true }).then((result) => {
      if (live && result.ok) setView(result.data);
    });
    return () => {
      live = false;
    };
  }, [appCode, version]);

  useEffect(() => {
    if (model && view && !view.models.includes(model)) setModel(undefined);
  }, [model, view]);

  return (
    <aside className="pl-editor__preview" data-testid="app-preview">
      <ChatPanel
        appName={view?.name ?? ""}
        appAvatarUrl={view?.avatarUrl}
        openingText={view?.openingText}
        guidingQuestions={view?.guidingQuestions ?? []}
        turns={chat.turns}
        streaming={chat.streaming}
        onSend={(text) => void chat.send(text)}
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
                  onClick={chat.reset}
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
