import { CopyOutlined, DeleteOutlined, EditOutlined, LikeFilled, LikeOutlined, MessageOutlined, StarFilled, StarOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Card, Flex, Popconfirm, Tag, Tooltip, Typography } from "antd";
import type React from "react";
import { useTranslation } from "react-i18next";
import { AppAvatar } from "./app-avatar";

/** An app as the list shows it, plus its default model when known. */
export type AppCardApp = components["schemas"]["AppSummary"] & { defaultModel?: string };

const TYPE_COLORS: Record<AppCardApp["type"], string> = { LIGHT: "blue", KNOWLEDGE: "green", AGENT: "purple", WORKFLOW: "orange" };

/** Props of {@link AppCard}. */
export interface AppCardProps {
  app: AppCardApp;
  /** The localized name of the app's category. */
  categoryName?: string;
  selected?: boolean;
  onOpen?: (app: AppCardApp) => void;
  onChat?: (app: AppCardApp) => void;
  onThumb?: (app: AppCardApp) => void;
  onCollect?: (app: AppCardApp) => void;
  onCopy?: (app: AppCardApp) => void;
  onDelete?: (app: AppCardApp) => void | Promise<void>;
  /** The export action (a portable file of this app), shown when given. */
  exportAction?: React.ReactNode;
  /** An action on this app is under way. */
  busy?: boolean;
}

/** One app of the apps list: avatar, name, description, type and model, thumb/collect with counts, chat, edit, copy, delete. */
export function AppCard({
  app,
  categoryName,
  selected = false,
  onOpen,
  onChat,
  onThumb,
  onCollect,
  onCopy,
  onDelete,
  exportAction,
  busy = false,
}: AppCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      className={selected ? "pl-app-card pl-app-card--selected" : "pl-app-card"}
      hoverable
      data-testid={`app-card-${app.code}`}
      onClick={() => onOpen?.(app)}
      actions={[
        <Tooltip key="chat" title={t("apps.card.chat")}>
          <Button
            type="text"
            size="small"
            icon={<MessageOutlined />}
            onClick={(event) => {
              event.stopPropagation();
              onChat?.(app);
            }}
            data-testid={`app-chat-${app.code}`}
            aria-label={t("apps.card.chat")}
          />
        </Tooltip>,
        <Tooltip key="edit" title={t("apps.card.edit")}>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            onClick={(event) => {
              event.stopPropagation();
              onOpen?.(app);
            }}
            data-testid={`app-edit-${app.code}`}
            aria-label={t("apps.card.edit")}
          />
        </Tooltip>,
        <Tooltip key="copy" title={t("apps.card.copy")}>
          <Button
            type="text"
            size="small"
            icon={<CopyOutlined />}
            disabled={busy}
            onClick={(event) => {
              event.stopPropagation();
              onCopy?.(app);
            }}
            data-testid={`app-copy-${app.code}`}
            aria-label={t("apps.card.copy")}
          />
        </Tooltip>,
        ...(exportAction ? [<span key="export">{exportAction}</span>] : []),
        <span key="delete" onClick={(event) => event.stopPropagation()}>
          <Popconfirm
            title={t("apps.card.deleteTitle")}
            description={t("apps.card.deleteDescription", { name: app.name })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, ...({ "data-testid": `app-delete-confirm-${app.code}` } as Record<string, string>) }}
            onConfirm={() => onDelete?.(app)}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={busy}
              data-testid={`app-delete-${app.code}`}
              aria-label={t("common.delete")}
            />
          </Popconfirm>
        </span>,
      ]}
    >
      <Flex gap={12} align="flex-start">
        <AppAvatar name={app.name} src={app.avatarUrl} size={48} />
        <div className="pl-app-card__text">
          <Flex align="center" gap={6} wrap>
            <Typography.Text strong ellipsis className="pl-app-card__name" data-testid={`app-card-name-${app.code}`}>
              {app.name}
            </Typography.Text>
            <Tag color={TYPE_COLORS[app.type]} variant="filled" className="pl-app-card__tag">
              {t(`apps.types.${app.type}`)}
            </Tag>
            {app.isPublic ? (
              <Tag variant="outlined" className="pl-app-card__tag">
                {t("apps.card.public")}
              </Tag>
            ) : null}
          </Flex>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="pl-app-card__description">
            {app.description}
          </Typography.Paragraph>
        </div>
      </Flex>
      <Flex justify="space-between" align="center" className="pl-app-card__meta" gap={8}>
        <Typography.Text type="secondary" ellipsis className="pl-app-card__facts">
          {[categoryName, app.defaultModel].filter(Boolean).join(" · ") || app.code}
        </Typography.Text>
        <Flex gap={2} onClick={(event) => event.stopPropagation()}>
          <Button
            type="text"
            size="small"
            icon={app.thumbed ? <LikeFilled /> : <LikeOutlined />}
            className={app.thumbed ? "pl-app-card__on" : undefined}
            onClick={() => onThumb?.(app)}
            aria-pressed={app.thumbed}
            aria-label={t("apps.card.thumb")}
            data-testid={`app-thumb-${app.code}`}
          >
            {app.thumbCount}
          </Button>
          <Button
            type="text"
            size="small"
            icon={app.collected ? <StarFilled /> : <StarOutlined />}
            className={app.collected ? "pl-app-card__on" : undefined}
            onClick={() => onCollect?.(app)}
            aria-pressed={app.collected}
            aria-label={t("apps.card.collect")}
            data-testid={`app-collect-${app.code}`}
          >
            {app.collectCount}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
