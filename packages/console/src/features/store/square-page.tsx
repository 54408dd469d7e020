import { ApartmentOutlined } from "@ant-design/icons";
import { Card, Col, Flex, Input, Row, Skeleton, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppAvatar } from "../../components/app-avatar";
import { EmptyState } from "../../components/empty-state";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { storeEndpoints } from "../../lib/api/store";
import { StoreCard } from "./store-card";
import { STORE_KEYS, useStoreActions } from "./use-store-actions";
import { STORE_QUERY_MAX } from "./store-page";
import "./store.css";

/**
 * /square (and /console/square): the apps and workflows published for the team spaces the
 * viewer belongs to, and those of spaces that opened their square to everyone.
 */
export function SquarePage() {
  const { t } = useTranslation();
  const [q, setQ] = useState("");
  const actions = useStoreActions();
  const square = useSpaceQuery({
    key: [...STORE_KEYS.square, q],
    fetch: (signal) => storeEndpoints.square(q || undefined, { signal }),
    enabled: [...q].length <= STORE_QUERY_MAX,
    keepPreviousPage: true,
  });
  return (
    <div className="pl-store" data-testid="square-page">
      <Flex vertical gap={4}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("store.squareTitle")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("store.squareSubtitle")}</Typography.Text>
      </Flex>
      {actions.signedIn ? <SquareOpenSwitch /> : null}
      <Input.Search
        allowClear
        placeholder={t("store.searchPlaceholder")}
        onSearch={(value) => setQ(value.trim())}
        style={{ maxWidth: 360 }}
        data-testid="square-search"
      />
      {square.isPending ? <Skeleton active /> : null}
      {square.data && square.data.items.length === 0 ? <EmptyState title={t("store.squareEmpty")} data-testid="square-empty" /> : null}
      <Row gutter={[16, 16]} data-testid="square-list">
        {(square.data?.items ?? []).map((item) => (
          <Col key={item.listingId} xs={24} sm={12} lg={8} xl={6}>
            {item.kind === "app" ? (
              <StoreCard
                app={item}
                onTry={actions.onTry}
                onThumb={(app) => void actions.onThumb(app)}
                onCollect={(app) => void actions.onCollect(app)}
                onCopy={actions.signedIn ? actions.onCopy : undefined}
              />
            ) : (
              <Card className="pl-store__card" data-testid={`square-workflow-${item.id}`}>
                <Flex gap={12}>
                  <AppAvatar name={item.name} src={item.avatarUrl} size={48} />
                  <Flex vertical gap={4} style={{ minWidth: 0 }}>
                    <Typography.Text strong ellipsis>
                      {item.name}
                    </Typography.Text>
                    <Tag icon={<ApartmentOutlined />} style={{ width: "fit-content" }}>
                      {t("store.workflow")}
                    </Tag>
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
                      {item.description}
                    </Typography.Paragraph>
                  </Flex>
                </Flex>
              </Card>
            )}
          </Col>
        ))}
      </Row>
    </div>
  );
}

/** The space's square setting: its listings for members only, or for everyone (owner or administrator). */
function SquareOpenSwitch() {
  const { t } = useTranslation();
  const settings = useSpaceQuery({ key: ["store", "space-settings"], fetch: (signal) => storeEndpoints.spaceSettings({ signal, silent: true }) });
  if (!settings.data) return null;
  return (
    <Flex align="center" gap={8}>
      <Switch
        checked={settings.data.squareOpenToEveryone}
        onChange={async (checked) => {
          if ((await storeEndpoints.saveSpaceSettings(checked)).ok) await invalidateSpace(["store", "space-settings"], STORE_KEYS.square);
        }}
        data-testid="square-open-switch"
      />
      <Typography.Text>{t("store.squareOpen")}</Typography.Text>
    </Flex>
  );
}
