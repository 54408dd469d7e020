import { CodeOutlined, MessageOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../app/paths';
import { PageHeader } from '../../components/page-header';

const COMING = [
  { key: 'wechat', icon: <WechatOutlined /> },
  { key: 'officialAccount', icon: <WechatOutlined /> },
  { key: 'feishu', icon: <MessageOutlined /> },
  { key: 'dingtalk', icon: <MessageOutlined /> },
] as const;

/** /console/clients/configClient: choose a channel; web embed today, the rest with the channels work. */
export function ChannelPickerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="channel-picker-page">
      <PageHeader
        title={<span data-testid="channel-picker-title">{t('clients.channels.title')}</span>}
        subtitle={t('clients.channels.subtitle')}
        breadcrumb={[{ label: t('clients.list.title'), to: PATHS.clients }, { label: t('clients.channels.title') }]}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={8}>
          <Card data-testid="channel-web">
            <Typography.Title level={5}><CodeOutlined /> {t('clients.channels.web')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('clients.channels.webDescription')}</Typography.Paragraph>
            <Button type="primary" onClick={() => navigate(PATHS.clients)} data-testid="channel-web-open">{t('clients.channels.webOpen')}</Button>
          </Card>
        </Col>
        {COMING.map((channel) => (
          <Col key={channel.key} xs={24} md={12} xl={8}>
            <Card data-testid={`channel-${channel.key}`}>
              <Typography.Title level={5}>{channel.icon} {t(`clients.channels.names.${channel.key}`)}</Typography.Title>
              <Tag>{t('clients.channels.coming')}</Tag>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
