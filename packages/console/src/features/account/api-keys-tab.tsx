import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Modal, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '../../lib/api/endpoints';
import { feedback } from '../../lib/feedback';
import { formatDateTime } from '../../lib/format';
import type { ApiKeySummary } from '../../lib/api/types';
import { ApiKeyRevealModal } from '../../components/api-key-reveal-modal';
import { EmptyState } from '../../components/empty-state';
import { ConfirmDeleteButton } from '../../components/confirm-delete-button';

/** Personal API keys: list with create and last-active times, create (shown once) and delete. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation();
  const [keys, setKeys] = useState<ApiKeySummary[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [revealed, setRevealed] = useState<{ name: string; key: string }>();
  const [form] = Form.useForm<{ name: string }>();

  const load = useCallback(async () => {
    setLoading(true);
    const result = await endpoints.me.apiKeys();
    // A superseded (aborted) load leaves the state to the call that replaced it.
    if (!result.ok && result.error.kind === 'aborted') return;
    if (result.ok) setKeys(result.data);
    setLoadFailed(!result.ok);
    setLoading(false);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (key: ApiKeySummary) => {
    const result = await endpoints.me.deleteApiKey(key.id);
    if (!result.ok) return;
    feedback.success(t('apiKeys.deleted', { name: key.name }));
    setKeys((current) => current.filter((item) => item.id !== key.id));
  };

  return (
    <Card
      className="pl-card-plain"
      title={t('apiKeys.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="api-key-create">
          {t('apiKeys.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('apiKeys.intro')}</Typography.Paragraph>
      <Table<ApiKeySummary>
        rowKey="id"
        loading={loading}
        dataSource={keys}
        pagination={false}
        data-testid="api-key-table"
        locale={{
          emptyText: loadFailed ? (
            <EmptyState
              compact
              title={t('apiKeys.loadFailedTitle')}
              description={t('apiKeys.loadFailedDescription')}
              action={<Button onClick={() => void load()} data-testid="api-key-retry">{t('common.retry')}</Button>}
              data-testid="api-key-load-failed"
            />
          ) : (
            <EmptyState compact icon={<KeyOutlined className="pl-empty__glyph" />} title={t('apiKeys.emptyTitle')} description={t('apiKeys.emptyDescription')} data-testid="api-key-empty" />
          ),
        }}
        columns={[
          { key: 'name', title: t('apiKeys.columns.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
          {
            key: 'prefix',
            title: t('apiKeys.columns.key'),
            dataIndex: 'prefix',
            render: (prefix: string) => <Typography.Text code>{`${prefix}…`}</Typography.Text>,
          },
          { key: 'createdAt', title: t('apiKeys.columns.created'), dataIndex: 'createdAt', render: (value: string) => formatDateTime(value, i18n.language) },
          {
            key: 'lastUsedAt',
            title: t('apiKeys.columns.lastUsed'),
            dataIndex: 'lastUsedAt',
            render: (value: string | null) => (value ? formatDateTime(value, i18n.language) : <Typography.Text type="secondary">{t('apiKeys.neverUsed')}</Typography.Text>),
          },
          {
            key: 'actions',
            title: t('apiKeys.columns.actions'),
            align: 'right',
            render: (_value, key) => <ConfirmDeleteButton name={key.name} onConfirm={() => remove(key)} data-testid={`api-key-delete-${key.id}`} />,
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('apiKeys.createTitle')}
        okText={t('apiKeys.createSubmit')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'api-key-create-submit' } as Record<string, string>}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async ({ name }) => {
            setSaving(true);
            try {
              const result = await endpoints.me.createApiKey({ name: name.trim() });
              if (!result.ok) return;
              const { key, ...summary } = result.data;
              setKeys((current) => [{ ...summary, lastUsedAt: null }, ...current]);
              setCreating(false);
              form.resetFields();
              setRevealed({ name: summary.name, key });
            } finally {
              setSaving(false);
            }
          }}
        >
          <Form.Item
            name="name"
            label={t('apiKeys.nameLabel')}
            extra={t('apiKeys.nameHint')}
            rules={[
              { required: true, whitespace: true, message: t('apiKeys.nameRequired') },
              { max: 50, message: t('auth.validation.nameLong', { max: 50 }) },
            ]}
          >
            <Input autoFocus maxLength={50} placeholder={t('apiKeys.namePlaceholder')} data-testid="api-key-name" />
          </Form.Item>
        </Form>
      </Modal>
      <ApiKeyRevealModal revealed={revealed} onClose={() => setRevealed(undefined)} />
    </Card>
  );
}
