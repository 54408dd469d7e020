import { CopyOutlined, HeartFilled, HeartOutlined, LikeFilled, LikeOutlined, MessageOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Tooltip, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AppAvatar } from "../../components/app-avatar";
import type { StoreApp } from "../../lib/api/store";

/** Props of {@link StoreCard}. */
export interface StoreCardProps {
  app: StoreApp;
  categoryName?: string | undefined;
  onTry: (app: StoreApp) => void;
  onThumb: (app: StoreApp) => void;
  onCollect: (app: StoreApp) => void;
  /** Absent for guests: copying needs a space. */
  onCopy?: ((app: StoreApp) => void) | undefined;
}

/** One app of the store or the square: its public card, counts and actions. */
export function StoreCard({ app, categoryName, onTry, onThumb, onCollect, onCopy }: StoreCardProps) {
  const { t } = useTranslation();
  return (
    <Card className="pl-store__card" data-testid={`store-app-${app.code}`}>
      <Flex gap={12} align="flex-start">
        <AppAvatar name={app.name} src={app.avatarUrl} size={48} />
        <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong ellipsis data-testid="store-app-name">
            {app.name}
          </Typography.Text>
          {categoryName ? <Typography.Text type="secondary">{categoryName}</Typography.Text> : null}
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
            {app.description}
          </Typography.Paragraph>
        </Flex>
      </Flex>
      <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
        <Flex gap={4}>
          <Tooltip title={t("store.thumb")}>
            <Button
              type="text"
              size="small"
              icon={app.thumbed ? <LikeFilled /> : <LikeOutlined />}
              onClick={() => onThumb(app)}
              data-testid={`store-thumb-${app.code}`}
            >
              {app.thumbCount}
            </Button>
          </Tooltip>
          <Tooltip title={t("store.collect")}>
            <Button
              type="text"
              size="small"
              icon={app.collected ? <HeartFilled /> : <HeartOutlined />}
              onClick={() => onCollect(app)}
              data-testid={`store-collect-${app.code}`}
            >
              {app.collectCount}
            </Button>
          </Tooltip>
        </Flex>
        <Flex gap={4}>
          {onCopy ? (
            <Tooltip title={t("store.copyHint")}>
              <Button size="small" icon={<CopyOutlined />} onClick={() => onCopy(app)} data-testid={`store-copy-${app.code}`}>
                {t("store.copy")}
              </Button>
            </Tooltip>
          ) : null}
          <Button size="small" type="primary" icon={<MessageOutlined />} onClick={() => onTry(app)} data-testid={`store-try-${app.code}`}>
            {t("store.try")}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
