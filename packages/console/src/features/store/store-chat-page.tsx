import { Alert, Button, Flex, Result, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AppAvatar } from "../../components/app-avatar";
import { ChatPanel } from "../../components/chat/chat-panel";
import { useSpaceQuery } from "../../lib/api/query";
import { storeEndpoints } from "../../lib/api/store";
import { PATHS } from "../../lib/paths";
import { guidingQuestionsOf } from "../apps/app-rules";
import { useGuestChat } from "./use-guest-chat";
import { useStoreActions } from "./use-store-actions";

/**
 * /app/{code} for a store app: anyone, signed in or not, tries it. Answers are charged to the
 * publisher's space within the instance's guest limits; a member may copy it into their space.
 */
export function StoreChatPage({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions = useStoreActions();
  const detail = useSpaceQuery({ key: ["store", "app", code], fetch: (signal) => storeEndpoints.get(code, { silent: true, signal }) });
  const chat = useGuestChat(code);
  if (detail.isError) {
    return (
      <Result
        status="404"
        title={t("store.appMissingTitle")}
        subTitle={t("store.appMissing")}
        extra={<Button onClick={() => navigate(PATHS.home)}>{t("store.backToStore")}</Button>}
        data-testid="store-app-missing"
      />
    );
  }
  const app = detail.data;
  if (!app) return <Skeleton active avatar paragraph={{ rows: 6 }} />;
  const openingText = app.openingIntroduction.replace(/(!?)\[([^\]\n]+)\](?!\()/g, (whole, bang: string) => (bang ? whole : "")).trim();
  return (
    <div className="pl-store" data-testid="store-chat-page">
      <ChatPanel
        appName={app.name}
        appAvatarUrl={app.avatarUrl}
        openingText={openingText}
        guidingQuestions={guidingQuestionsOf(app.openingIntroduction)}
        turns={chat.turns}
        streaming={chat.streaming}
        onSend={(text) => void chat.send(text)}
        onStop={chat.stop}
        testIdPrefix="store-chat"
        header={
          <Flex align="center" justify="space-between" gap={12} wrap>
            <Flex align="center" gap={10}>
              <AppAvatar name={app.name} src={app.avatarUrl} size={36} />
              <Flex vertical>
                <Typography.Title level={5} style={{ margin: 0 }} data-testid="store-chat-name">
                  {app.name}
                </Typography.Title>
                <Typography.Text type="secondary">{app.description}</Typography.Text>
              </Flex>
            </Flex>
            {actions.signedIn ? (
              <Button onClick={() => actions.onCopy(app)} data-testid="store-chat-copy">
                {t("store.copy")}
              </Button>
            ) : null}
          </Flex>
        }
        footer={<Alert type="info" showIcon message={t("store.guestNote")} data-testid="store-guest-note" />}
      />
    </div>
  );
}
