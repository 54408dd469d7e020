import { MessageOutlined, PlusOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Flex, Result, Select, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useParams, useSearchParams } from "react-router";
import { StoreChatPage } from "../store/store-chat-page";
import { endpoints } from "../../lib/api/endpoints";
import { mapData, useSpaceQuery } from "../../lib/api/query";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { useSession } from "../../lib/api/session";
import { AppAvatar } from "../../components/app-avatar";
import { ChatPanel } from "../../components/chat/chat-panel";
import { imageAware, usePendingFiles } from "../../components/chat/use-pending-files";
import { EmptyState } from "../../components/empty-state";
import "../apps/apps.css";
import { APPS } from "../apps/apps-page";
import { MicrophoneButton } from "./microphone-button";
import { CHAT_KEYS, useChat } from "./use-chat";
import { useAutoRead } from "../voice/use-auto-read";
import { PlayAnswerButton, SpeakerToggle, VoiceAudio } from "../voice/voice-controls";

type Conversation = components["schemas"]["Conversation"];

/** The code the home menu's "chat" item uses: the most recent app of the space. */
export const RECENT_APP_CODE = "recent";

/**
 * /app/{code}: chat with an app in the home shell — header, opening text and guiding
 * questions, streaming answers with Stop, the person's conversations (new chat, switch),
 * delete context, and a model switcher when the app offers several.
 */
export function AppChatPage() {
  const { code = "" } = useParams();
  const { token } = useSession();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A store app: guests, and members trying an app of another space, chat through the store.
  if (code !== RECENT_APP_CODE && (!token || params.get("store") === "1")) return <StoreChatPage key={code} code={code} />;
  if (!token) {
    return (
      <Result
        status="403"
        title={t("chat.signInTitle")}
        subTitle={t("chat.signIn")}
        extra={
          <Button type="primary" onClick={() => navigate(`${PATHS.login}?returnTo=${encodeURIComponent(`/app/${code}`)}`)} data-testid="chat-sign-in">
            {t("nav.login")}
          </Button>
        }
        data-testid="chat-signed-out"
      />
    );
  }
  if (code === RECENT_APP_CODE) return <RecentApp />;
  return <AppChat key={code} code={code} />;
}

/** Opens the newest app of the space, or offers to create one. */
function RecentApp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const recent = useSpaceQuery({
    key: [...APPS, "recent"],
    fetch: (signal) => mapData(endpoints.apps.list(1, { silent: true, signal }), (page) => page.items[0]?.code ?? null),
  });
  const target = recent.isError ? null : recent.data;
  if (target === undefined) return <Skeleton active />;
  if (target) return <Navigate to={`/app/${encodeURIComponent(target)}`} replace />;
  return (
    <div className="pl-card">
      <EmptyState
        icon={<MessageOutlined className="pl-empty__glyph" />}
        title={t("chat.noAppsTitle")}
        description={t("chat.noApps")}
        action={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PATHS.createApp)} data-testid="chat-create-app">
            {t("apps.create")}
          </Button>
        }
        data-testid="chat-no-apps"
      />
    </div>
  );
}

function AppChat({ code }: { code: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [model, setModel] = useState<string>();
  const chat = useChat({ appCode: code, channel: "web", model });
  const app = useSpaceQuery({ key: CHAT_KEYS.app(code), fetch: (signal) => endpoints.chat.app(code, { silent: true, signal }) });
  const view = app.data;
  const files = usePendingFiles(imageAware(chat.uploadFile, model ?? view?.defaultModel, view?.imageModels));
  const voice = useAutoRead(code, view?.voice === true, chat.turns);
  // Preview conversations belong to the editor's preview pane; a new one is added by useChat's invalidation.
  const conversations: Conversation[] =
    useSpaceQuery({
      key: CHAT_KEYS.conversations(code),
      fetch: (signal) =>
        mapData(endpoints.chat.conversations(code, { silent: true, signal }), (list) => list.filter((conversation) => conversation.channel !== "preview")),
    }).data ?? [];

  if (app.isError && !view) {
    return (
      <Result
        status="404"
        title={t("chat.notFoundTitle")}
        subTitle={t("chat.notFound", { code })}
        extra={
          <Button onClick={() => navigate(PATHS.home)} data-testid="chat-go-home">
            {t("notFound.backHome")}
          </Button>
        }
        data-testid="chat-app-missing"
      />
    );
  }
  if (!view) return <Skeleton active avatar paragraph={{ rows: 6 }} />;

  return (
    <div className="pl-chat-page" data-testid="app-chat-page">
      <aside className="pl-chat-page__side">
        <div className="pl-chat-page__side-head">
          <Button
            block
            icon={<PlusOutlined />}
            onClick={() => {
              chat.reset();
              files.clear();
            }}
            disabled={chat.streaming}
            data-testid="chat-new"
          >
            {t("chat.newChat")}
          </Button>
        </div>
        <div className="pl-chat-page__list" data-testid="chat-conversations">
          {conversations.length === 0 ? (
            <Typography.Text type="secondary" className="pl-chat__empty">
              {t("chat.noConversations")}
            </Typography.Text>
          ) : null}
          {conversations.map((conversation) => (
            <Button
              key={conversation.id}
              type="text"
              className={conversation.id === chat.conversationId ? "pl-chat-page__conv pl-chat-page__conv--active" : "pl-chat-page__conv"}
              disabled={chat.streaming}
              onClick={() => {
                files.clear();
                void chat.load(conversation.id);
              }}
              data-testid={`chat-conversation-${conversation.id}`}
              title={formatDateTime(conversation.updatedAt, i18n.language)}
            >
              <Typography.Text ellipsis>{conversation.title || t("chat.untitled")}</Typography.Text>
            </Button>
          ))}
        </div>
      </aside>
      <section className="pl-chat-page__main">
        <ChatPanel
          appName={view.name}
          appAvatarUrl={view.avatarUrl}
          openingText={view.openingText}
          guidingQuestions={view.guidingQuestions}
          turns={chat.turns}
          streaming={chat.streaming}
          onSend={(text, attached) => void chat.send(text, attached)}
          files={files}
          onStop={chat.stop}
          onClearContext={() => void chat.clearContext()}
          composerTools={(insert) => <MicrophoneButton onText={insert} disabled={chat.streaming} />}
          testIdPrefix="chat"
          answerActions={
            view.voice
              ? (turn) => <PlayAnswerButton playing={voice.playing === turn.id} onPlay={() => void voice.play(turn.id, turn.content)} onStop={voice.stop} />
              : undefined
          }
          header={
            <Flex align="center" justify="space-between" gap={12}>
              <Flex align="center" gap={10} className="pl-chat-page__title">
                <AppAvatar name={view.name} src={view.avatarUrl} size={36} />
                <Typography.Title level={5} style={{ margin: 0 }} data-testid="chat-app-name">
                  {view.name}
                </Typography.Title>
              </Flex>
              {view.voice ? <SpeakerToggle on={voice.auto} onChange={voice.setAuto} /> : null}
              <VoiceAudio audio={voice.audio} />
              {view.models.length > 1 ? (
                <Select
                  value={model ?? view.defaultModel}
                  onChange={setModel}
                  options={view.models.map((id) => ({ value: id, label: id }))}
                  popupMatchSelectWidth={false}
                  aria-label={t("chat.model")}
                  data-testid="chat-model"
                />
              ) : null}
            </Flex>
          }
          footer={view.bottomSlogan ?? undefined}
        />
      </section>
    </div>
  );
}
