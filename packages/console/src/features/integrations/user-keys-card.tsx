import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import type { components } from '@parley/sdk';
import { Button, Card, DatePicker, Form, Input, InputNumber, Modal, Switch, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '../../lib/api/endpoints';
import { feedback } from '../../lib/feedback';
import { formatDateTime } from '../../lib/format';
import { ApiKeyRevealModal } from '../../components/api-key-reveal-modal';
import { EmptyState } from '../../components/empty-state';
import { ConfirmDeleteButton } from '../../components/confirm-delete-button';

type UserKey = components['schemas']['UserKey'];
interface CreateFields {
  name: string;
  appCode?: string;
  creditLimit?: number | null;
  /** The date picker's value (a dayjs instance). */
  expiresAt?: { toISOString(): string } | null;
}

/** Keys the space hands to its end users for the OpenAI-compatible API: limited to an app, credits and time. */
export function UserKeysCard() {
  const { t, i18n } = useTranslation();
  const [keys, setKeys] = useState<UserKey[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadFailed, setLoadFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [revealed, setRevealed] = useState<{ name: string; key: string }>();
  const [form] = Form.useForm<CreateFields>();

  const load = useCallback(async () => {
    setLoading(true);
    const result = await endpoints.userKeys.list();
    if (!result.ok && result.error.kind === 'aborted') return;
    if (result.ok) setKeys(result.data);
    setLoadFailed(!result.ok);
    setLoading(false);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const setEnabled = async (key: UserKey, enabled: boolean) => {
    const result = await endpoints.userKeys.update(key.id, { enabled });
    if (result.ok) setKeys((current) => current.map((item) => (item.id === key.id ? result.data : item)));
  };

  const remove = async (key: UserKey) => {
    const result = await endpoints.userKeys.remove(key.id);
    if (!result.ok) return;
    feedback.success(t('apiKeys.deleted', { name: key.name }));
    setKeys((current) => current.filter((item) => item.id !== key.id));
  };

  const expired = (key: UserKey) => key.expiresAt !== null && new Date(key.expiresAt).getTime() < Date.now();

  return (
    <Card
      className="pl-card-plain"
      title={t('apiAccess.userKeys.title')}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="user-key-create">
          {t('apiAccess.userKeys.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('apiAccess.userKeys.intro')}</Typography.Paragraph>
      <Table<UserKey>
        rowKey="id"
        loading={loading}
        dataSource={keys}
        pagination={false}
        data-testid="user-key-table"
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: loadFailed ? (
            <EmptyState compact title={t('apiKeys.loadFailedTitle')} action={<Button onClick={() => void load()}>{t('common.retry')}</Button>} data-testid="user-key-load-failed" />
          ) : (
            <EmptyState compact icon={<KeyOutlined className="pl-empty__glyph" />} title={t('apiAccess.userKeys.emptyTitle')} description={t('apiAccess.userKeys.emptyDescription')} data-testid="user-key-empty" />
          ),
        }}
        columns={[
          { key: 'name', title: t('apiKeys.columns.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
          { key: 'prefix', title: t('apiKeys.columns.key'), dataIndex: 'prefix', render: (prefix: string) => <Typography.Text code>{`${prefix}…`}</Typography.Text> },
          {
            key: 'appCode',
            title: t('apiAccess.userKeys.app'),
            dataIndex: 'appCode',
            render: (code: string | null) => (code ? <Typography.Text code>{code}</Typography.Text> : <Typography.Text type="secondary">{t('apiAccess.userKeys.anyApp')}</Typography.Text>),
          },
          {
            key: 'credits',
            title: t('apiAccess.userKeys.credits'),
            render: (_value, key) => (key.creditLimit === null ? t('apiAccess.userKeys.usedNoLimit', { used: key.creditsUsed }) : t('apiAccess.userKeys.usedOfLimit', { used: key.creditsUsed, limit: key.creditLimit })),
          },
          {
            key: 'expiresAt',
            title: t('apiAccess.userKeys.expires'),
            render: (_value, key) =>
              key.expiresAt === null ? (
                <Typography.Text type="secondary">{t('apiAccess.userKeys.never')}</Typography.Text>
              ) : (
                <span>
                  {formatDateTime(key.expiresAt, i18n.language)} {expired(key) ? <Tag color="red">{t('apiAccess.userKeys.expired')}</Tag> : null}
                </span>
              ),
          },
          {
            key: 'lastUsedAt',
            title: t('apiKeys.columns.lastUsed'),
            dataIndex: 'lastUsedAt',
            render: (value: string | null) => (value ? formatDateTime(value, i18n.language) : <Typography.Text type="secondary">{t('apiKeys.neverUsed')}</Typography.Text>),
          },
          {
            key: 'enabled',
            title: t('apiAccess.userKeys.enabled'),
            render: (_value, key) => <Switch checked={key.enabled} onChange={(checked) => void setEnabled(key, checked)} data-testid={`user-key-enabled-${key.id}`} />,
          },
          {
            key: 'actions',
            title: t('apiKeys.columns.actions'),
            align: 'right',
            render: (_value, key) => <ConfirmDeleteButton name={key.name} onConfirm={() => remove(key)} data-testid={`user-key-delete-${key.id}`} />,
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('apiAccess.userKeys.createTitle')}
        okText={t('apiKeys.createSubmit')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'user-key-create-submit' } as Record<string, string>}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async ({ name, appCode, creditLimit, expiresAt }) => {
            setSaving(true);
            try {
              const result = await endpoints.userKeys.create({
                name: name.trim(),
                appCode: appCode?.trim() ? appCode.trim() : null,
                creditLimit: creditLimit ?? null,
                expiresAt: expiresAt ? expiresAt.toISOString() : null,
              });
              if (!result.ok) {
                if (result.error.field) form.setFields([{ name: result.error.field as keyof CreateFields, errors: [result.error.message] }]);
                return;
              }
              const { key, ...summary } = result.data;
              setKeys((current) => [summary, ...current]);
              setCreating(false);
              form.resetFields();
              setRevealed({ name: summary.name, key });
            } finally {
              setSaving(false);
            }
          }}
        >
          <Form.Item name="name" label={t('apiKeys.nameLabel')} rules={[{ required: true, whitespace: true, message: t('apiKeys.nameRequired') }, { max: 50 }]}>
            <Input autoFocus maxLength={50} placeholder={t('apiAccess.userKeys.namePlaceholder')} data-testid="user-key-name" />
          </Form.Item>
          <Form.Item name="appCode" label={t('apiAccess.userKeys.appCode')} extra={t('apiAccess.userKeys.appCodeHint')}>
            <Input data-testid="user-key-app" />
          </Form.Item>
          <Form.Item name="creditLimit" label={t('apiAccess.userKeys.creditLimit')} extra={t('apiAccess.userKeys.creditLimitHint')}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="user-key-limit" />
          </Form.Item>
          <Form.Item name="expiresAt" label={t('apiAccess.userKeys.expiresAt')} extra={t('apiAccess.userKeys.expiresAtHint')}>
            <DatePicker showTime style={{ width: '100%' }} data-testid="user-key-expires" />
          </Form.Item>
        </Form>
      </Modal>
      <ApiKeyRevealModal revealed={revealed} onClose={() => setRevealed(undefined)} />
    </Card>
  );
}
