import { CheckOutlined, ClockCircleOutlined, ExclamationCircleFilled, RedoOutlined, RobotOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Button, Skeleton, Tooltip, Typography } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import type { InboxMessage } from "../../lib/api/inbox";
import { MessageAttachments } from "../../components/chat/attachments";
import { ReplyContent } from "../../components/chat/reply-content";

export interface ConversationViewProps {
  messages: readonly InboxMessage[];
  /** The customer's name, for their messages without one. */
  customerName?: string | null | undefined;
  customerAvatarUrl?: string | null | undefined;
  loading?: boolean;
  hasMore?: boolean;
  loadingOlder?: boolean;
  onLoadOlder?: () => void;
  /** Sends a failed message again; without it, failed messages show no Retry action. */
  onRetry?: ((message: InboxMessage) => void) | undefined;
}

/** Where a message sent through a channel stands: sending, delivered, or failed with the reason. */
export function DeliveryState({ message, onRetry }: { message: Pick<InboxMessage, "delivery" | "deliveryError">; onRetry?: (() => void) | undefined }) {
  const { t } = useTranslation();
  if (message.delivery === "pending") {
    return (
      <span className="pl-inbox__delivery" data-testid="message-delivery" data-delivery="pending">
        <ClockCircleOutlined /> {t("chatManage.delivery.pending")}
      </span>
    );
  }
  if (message.delivery === "sent") {
    return (
      <span className="pl-inbox__delivery" data-testid="message-delivery" data-delivery="sent">
        <CheckOutlined /> {t("chatManage.delivery.sent")}
      </span>
    );
  }
  if (message.delivery === "failed") {
    return (
      <Typography.Text type="danger" className="pl-inbox__delivery pl-inbox__delivery--failed" data-testid="message-delivery" data-delivery="failed">
        <ExclamationCircleFilled /> {t("chatManage.delivery.failed")}
        {message.deliveryError ? `: ${message.deliveryError}` : ""}
        {onRetry && (
          <Button type="link" size="small" icon={<RedoOutlined />} onClick={onRetry} data-testid="message-retry">
            {t("chatManage.delivery.retry")}
          </Button>
        )}
      </Typography.Text>
    );
  }
  return null;
}

/** A session's history, oldest first: the customer on the left, the AI and operators on the right, with names and delivery states. */
export function ConversationView({
  messages,
  customerName,
  customerAvatarUrl,
  loading = false,
  hasMore = false,
  loadingOlder = false,
  onLoadOlder,
  onRetry,
}: ConversationViewProps) {
  const { t, i18n } = useTranslation();
  const bottom = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;
  // Follow new messages at the end; loading older ones (prepended) keeps the place.
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [lastId]);

  if (loading && messages.length === 0)
    return (
      <div className="pl-inbox__list-pad">
        <Skeleton active />
      </div>
    );
  return (
    <div className="pl-inbox__messages" data-testid="conversation-messages">
      {hasMore && (
        <div className="pl-inbox__more">
          <Button size="small" loading={loadingOlder} onClick={onLoadOlder} data-testid="conversation-load-older">
            {t("chatManage.conversation.loadOlder")}
          </Button>
        </div>
      )}
      {messages.length === 0 && (
        <Typography.Text type="secondary" className="pl-inbox__none">
          {t("chatManage.conversation.noMessages")}
        </Typography.Text>
      )}
      {messages.map((message) => {
        const customer = message.role === "user";
        const name = customer
          ? message.senderName || customerName || t("chatManage.roles.customer")
          : message.role === "operator"
            ? message.senderName || t("chatManage.roles.operator")
            : t("chatManage.roles.ai");
        const roleLabel = t(`chatManage.roles.${message.role === "user" ? "customer" : message.role === "assistant" ? "ai" : "operator"}`);
        return (
          <div
            key={message.id}
            className={`pl-inbox__message pl-inbox__message--${message.role}${message.delivery === "failed" ? " pl-inbox__message--failed" : ""}`}
            data-testid={`message-${message.role}`}
            data-message-id={message.id}
          >
            <Avatar
              size={28}
              src={customer ? customerAvatarUrl || undefined : undefined}
              icon={message.role === "assistant" ? <RobotOutlined /> : <UserOutlined />}
              className="pl-inbox__message-avatar"
            />
            <div className="pl-inbox__message-body">
              <div className="pl-inbox__message-meta">
                <Typography.Text strong data-testid="message-sender">
                  {name}
                </Typography.Text>
                {name !== roleLabel && <span className="pl-inbox__role">{roleLabel}</span>}
                <Tooltip title={formatDateTime(message.createdAt, i18n.language)}>
                  <Typography.Text type="secondary">
                    {new Intl.DateTimeFormat(i18n.language, { hour: "2-digit", minute: "2-digit" }).format(new Date(message.createdAt))}
                  </Typography.Text>
                </Tooltip>
              </div>
              {message.attachments.length > 0 ? <MessageAttachments files={message.attachments} align={customer ? "start" : "end"} /> : null}
              {message.content || message.attachments.length === 0 ? (
                <div className="pl-inbox__bubble" data-testid="message-content">
                  {customer ? message.content : <ReplyContent text={message.content} />}
                </div>
              ) : null}
              <DeliveryState message={message} onRetry={onRetry ? () => onRetry(message) : undefined} />
            </div>
          </div>
        );
      })}
      <div ref={bottom} />
    </div>
  );
}
