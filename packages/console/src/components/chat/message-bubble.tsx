import { ApiOutlined, CheckCircleFilled, CloseCircleFilled, LoadingOutlined, UserOutlined } from "@ant-design/icons";
import { Alert, Avatar, Flex, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CODES } from "../../lib/api/request";
import { PATHS } from "../../lib/paths";
import type { ChatTurn } from "./chat-state";
import { MessageAttachments } from "./attachments";
import { CitationList } from "./citation-list";
import { DatabaseResultTable, WriteConfirmationCard } from "./database-result";
import { AppAvatar } from "../app-avatar";
import "./chat.css";
import { ReplyContent } from "./reply-content";

/** Props of {@link MessageBubble}. */
export interface MessageBubbleProps {
  turn: ChatTurn;
  /** The app answering, for the assistant's avatar. */
  appName?: string;
  appAvatarUrl?: string;
  /** Shown under a completed answer. */
  actions?: ReactNode;
}

/** One message of a chat: the person's question, or the app's (streaming) answer with its plugin calls, citations and errors. */
export function MessageBubble({ turn, appName = "", appAvatarUrl, actions }: MessageBubbleProps) {
  const { t } = useTranslation();
  if (turn.role === "divider") {
    return (
      <div className="pl-chat__divider" data-testid="chat-context-divider">
        <span>{t("chat.contextCleared")}</span>
      </div>
    );
  }
  if (turn.role === "user") {
    return (
      <Flex className="pl-msg pl-msg--user" justify="flex-end" gap={10} data-testid="chat-message-user">
        <div className="pl-msg__body pl-msg__body--user">
          {turn.attachments?.length ? <MessageAttachments files={turn.attachments} align="end" /> : null}
          {turn.content ? <div className="pl-msg__bubble pl-msg__bubble--user">{turn.content}</div> : null}
        </div>
        <Avatar size={32} icon={<UserOutlined />} className="pl-msg__avatar pl-msg__avatar--user" />
      </Flex>
    );
  }
  const waiting = turn.status === "streaming" && turn.content === "" && !turn.tools?.length;
  return (
    <Flex className="pl-msg pl-msg--assistant" gap={10} data-testid="chat-message-assistant" data-status={turn.status}>
      <AppAvatar name={appName} src={appAvatarUrl} size={32} />
      <div className="pl-msg__body">
        {turn.tools?.length ? (
          <Flex gap={6} wrap className="pl-msg__tools">
            {turn.tools.map((tool) => (
              <Tag
                key={tool.id}
                icon={tool.status === "running" ? <LoadingOutlined /> : tool.status === "ok" ? <CheckCircleFilled /> : <CloseCircleFilled />}
                color={tool.status === "failed" ? "error" : tool.status === "ok" ? "success" : "processing"}
                data-testid="chat-tool"
              >
                <ApiOutlined /> {t("chat.toolCall", { name: tool.name })}
              </Tag>
            ))}
          </Flex>
        ) : null}
        {turn.tables?.map((table) => (
          <DatabaseResultTable key={table.id} table={table} />
        ))}
        {turn.content || !waiting ? (
          <div className="pl-msg__bubble pl-msg__bubble--assistant" data-testid="chat-answer-text">
            {turn.content ? (
              <ReplyContent text={turn.content} cursor={turn.status === "streaming"} />
            ) : (
              <Typography.Text type="secondary">{t("chat.noText")}</Typography.Text>
            )}
          </div>
        ) : (
          <div className="pl-msg__bubble pl-msg__bubble--assistant pl-msg__thinking" data-testid="chat-thinking">
            <span />
            <span />
            <span />
            <span className="pl-visually-hidden">{t("chat.thinking")}</span>
          </div>
        )}
        {actions && turn.status === "complete" && turn.content ? <div className="pl-msg__actions">{actions}</div> : null}
        {turn.confirmations?.map((confirmation) => (
          <WriteConfirmationCard key={confirmation.id} confirmation={confirmation} />
        ))}
        {turn.citations?.length ? <CitationList citations={turn.citations} /> : null}
        {turn.handover ? (
          <Typography.Text type="secondary" className="pl-msg__note" data-testid="chat-handover">
            {t("chat.handover")}
          </Typography.Text>
        ) : null}
        {turn.status === "stopped" ? (
          <Typography.Text type="secondary" className="pl-msg__note">
            {t("chat.stopped")}
          </Typography.Text>
        ) : null}
        {turn.status === "interrupted" ? (
          <Typography.Text type="secondary" className="pl-msg__note" data-testid="chat-interrupted">
            {t("chat.interrupted")}
          </Typography.Text>
        ) : null}
        {turn.rateLimited ? (
          <Typography.Text type="warning" className="pl-msg__note">
            {t("chat.rateLimited")}
          </Typography.Text>
        ) : null}
        {turn.status === "error" ? (
          turn.error?.code === CODES.insufficientCredits ? (
            <Alert
              type="warning"
              showIcon
              className="pl-msg__error"
              data-testid="chat-error-credits"
              title={t("chat.pointsNotEnough")}
              description={
                <Link to={PATHS.price} data-testid="chat-error-credits-link">
                  {t("chat.topUp")}
                </Link>
              }
            />
          ) : (
            <Alert type="error" showIcon className="pl-msg__error" data-testid="chat-error" title={turn.error?.message || t("chat.failed")} />
          )
        ) : null}
      </div>
    </Flex>
  );
}
