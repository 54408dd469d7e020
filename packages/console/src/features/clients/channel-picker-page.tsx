import { ApiOutlined, CodeOutlined } from "@ant-design/icons";
import { Button, Card, Col, Row, Skeleton, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PATHS } from "../../lib/paths";
import { PageHeader } from "../../components/page-header";
import { channelConfigPath } from "./channel-client-page";
import type { ChannelDescriptor } from "../../lib/api/channel-clients";
import { localized } from "./channel-rules";
import { useChannelCatalogue } from "./use-channel-catalogue";

/** One platform of the catalogue as a card: its name, what it can do, and connect. */
export function PlatformCard({ descriptor, onConnect }: { descriptor: ChannelDescriptor; onConnect: () => void }) {
  const { t, i18n } = useTranslation();
  const { capabilities } = descriptor;
  return (
    <Card data-testid={`channel-${descriptor.kind}`} style={{ height: "100%" }}>
      <Typography.Title level={5}>
        <ApiOutlined /> {localized(descriptor.name, i18n.language)}
      </Typography.Title>
      <Space size={[4, 4]} wrap style={{ marginBottom: 12 }}>
        <Tag>{t("clients.channels.maxText", { count: capabilities.maxText.value })}</Tag>
        {capabilities.replyWindow && <Tag>{t("clients.channels.replyWindow", { hours: capabilities.replyWindow.hours })}</Tag>}
        {capabilities.markdown && <Tag>{t("clients.channels.markdown")}</Tag>}
        {capabilities.passiveReply && <Tag>{t("clients.channels.passiveReply")}</Tag>}
      </Space>
      <div>
        <Button type="primary" onClick={onConnect} data-testid={`channel-${descriptor.kind}-open`}>
          {t("clients.channels.connect")}
        </Button>
      </div>
    </Card>
  );
}

/** /console/clients/configClient: choose a channel — the web embed or any platform of the catalogue. */
export function ChannelPickerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const catalogue = useChannelCatalogue();
  return (
    <div data-testid="channel-picker-page">
      <PageHeader
        title={<span data-testid="channel-picker-title">{t("clients.channels.title")}</span>}
        subtitle={t("clients.channels.subtitle")}
        breadcrumb={[{ label: t("clients.list.title"), to: PATHS.clients }, { label: t("clients.channels.title") }]}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={8}>
          <Card data-testid="channel-web" style={{ height: "100%" }}>
            <Typography.Title level={5}>
              <CodeOutlined /> {t("clients.channels.web")}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t("clients.channels.webDescription")}</Typography.Paragraph>
            <Button type="primary" onClick={() => navigate(PATHS.clients)} data-testid="channel-web-open">
              {t("clients.channels.webOpen")}
            </Button>
          </Card>
        </Col>
        {catalogue === undefined && (
          <Col xs={24} md={12} xl={8}>
            <Card>
              <Skeleton active />
            </Card>
          </Col>
        )}
        {catalogue?.map((descriptor) => (
          <Col key={descriptor.kind} xs={24} md={12} xl={8}>
            <PlatformCard descriptor={descriptor} onConnect={() => navigate(channelConfigPath({ kind: descriptor.kind }))} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
