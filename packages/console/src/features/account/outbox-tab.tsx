import { InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '../../lib/api/endpoints';
import { formatDateTime } from '../../lib/format';
import type { OutboxMessage } from '../../lib/api/types';
import { EmptyState } from '../../components/empty-state';

/** The embedded outbox (instance owner only): codes and notices sent while no SMTP server or SMS vendor is set up. */
export function OutboxTab() {
  const { t, i18n } = useTranslation();
  const [messages, setMessages] = useState<OutboxMessage[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    const result = await endpoints.outbox();
    if (!result.ok && result.error.kind === 'aborted') return;
    if (result.ok) setMessages([...result.data].sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
    setLoadFailed(!result.ok);
    setLoading(false);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Card
      className="pl-card-plain"
      title={t('account.outbox.title')}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void load()} loading={loading} data-testid="outbox-refresh">
          {t('common.refresh')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('account.outbox.intro')}</Typography.Paragraph>
      <Table<OutboxMessage>
        rowKey="id"
        loading={loading}
        dataSource={messages}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        data-testid="outbox-table"
        locale={{
          emptyText: loadFailed ? (
            <EmptyState
              compact
              title={t('account.outbox.loadFailedTitle')}
              description={t('account.outbox.loadFailedDescription')}
              action={<Button onClick={() => void load()}>{t('common.retry')}</Button>}
            />
          ) : (
            <EmptyState compact icon={<InboxOutlined className="pl-empty__glyph" />} title={t('account.outbox.emptyTitle')} description={t('account.outbox.emptyDescription')} />
          ),
        }}
        columns={[
          {
            key: 'channel',
            title: t('account.outbox.columns.channel'),
            dataIndex: 'channel',
            width: 100,
            render: (channel: OutboxMessage['channel']) => <Tag>{channel === 'sms' ? t('account.outbox.sms') : t('account.outbox.email')}</Tag>,
          },
          { key: 'to', title: t('account.outbox.columns.to'), dataIndex: 'to', render: (to: string) => <Typography.Text style={{ whiteSpace: 'nowrap' }}>{to}</Typography.Text> },
          { key: 'subject', title: t('account.outbox.columns.subject'), dataIndex: 'subject' },
          {
            key: 'text',
            title: t('account.outbox.columns.text'),
            dataIndex: 'text',
            render: (text: string) => <Typography.Paragraph className="pl-outbox__text" ellipsis={{ rows: 3, expandable: true }}>{text}</Typography.Paragraph>,
          },
          {
            key: 'createdAt',
            title: t('account.outbox.columns.time'),
            dataIndex: 'createdAt',
            width: 180,
            render: (value: string) => formatDateTime(value, i18n.language),
          },
        ]}
      />
    </Card>
  );
}
