import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import type { components } from '@parley/sdk';
import { Button, Card, Flex, Statistic, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../lib/api/request';
import { endpoints } from '../../lib/api/endpoints';
import { formatDateTime } from '../../lib/format';
import { EmptyState } from '../../components/empty-state';

type CreditMovement = components['schemas']['CreditMovement'];
type UsageRecord = components['schemas']['UsageRecord'];

export const RECORDS_PAGE_SIZE = 20;

/**
 * One page of a newest-first list the server pages without a total: a full page means there
 * may be another. Tracks the highest page reached so the pager can offer one page beyond it.
 */
function usePagedList<T>(fetchPage: (pageNo: number, pageSize: number) => Promise<ApiResult<T[]>>) {
  const [pageNo, setPageNo] = useState(1);
  const [rows, setRows] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [known, setKnown] = useState(0);

  const load = useCallback(
    async (page: number) => {
      setLoading(true);
      const result = await fetchPage(page, RECORDS_PAGE_SIZE);
      if (!result.ok && result.error.kind === 'aborted') return;
      setFailed(!result.ok);
      if (result.ok) {
        setRows(result.data);
        setPageNo(page);
        const seen = (page - 1) * RECORDS_PAGE_SIZE + result.data.length;
        const more = result.data.length === RECORDS_PAGE_SIZE ? 1 : 0;
        setKnown((current) => Math.max(page === 1 ? 0 : current, seen + more));
      }
      setLoading(false);
    },
    [fetchPage],
  );

  useEffect(() => {
    void load(1);
  }, [load]);

  return {
    rows,
    loading,
    failed,
    reload: () => void load(pageNo),
    pagination: {
      current: pageNo,
      pageSize: RECORDS_PAGE_SIZE,
      total: Math.max(known, rows.length),
      showSizeChanger: false,
      hideOnSinglePage: true,
      onChange: (page: number) => void load(page),
    },
  };
}

const fetchLedger = (pageNo: number, pageSize: number) => endpoints.billing.ledger(pageNo, pageSize);
const fetchUsage = (pageNo: number, pageSize: number) => endpoints.billing.usage(pageNo, pageSize);

/** Credits record: the space's balance and its append-only ledger, newest first. */
export function CreditsTab() {
  const { t, i18n } = useTranslation();
  const [balance, setBalance] = useState<number>();
  const list = usePagedList<CreditMovement>(fetchLedger);

  useEffect(() => {
    void endpoints.billing.balance().then((result) => {
      if (result.ok) setBalance(result.data.balance);
    });
  }, []);

  return (
    <Flex vertical gap={16}>
      <Card className="pl-card-plain">
        <Statistic title={t('account.credits.balance')} value={balance ?? '—'} prefix={<WalletOutlined />} data-testid="credits-balance" />
      </Card>
      <Card
        className="pl-card-plain"
        title={t('account.credits.title')}
        extra={<Button icon={<ReloadOutlined />} onClick={list.reload} loading={list.loading}>{t('common.refresh')}</Button>}
      >
        <Table<CreditMovement>
          rowKey="id"
          loading={list.loading}
          dataSource={list.rows}
          pagination={list.pagination}
          data-testid="credits-table"
          locale={{ emptyText: <EmptyState compact title={list.failed ? t('account.records.loadFailed') : t('account.records.creditsTitle')} description={list.failed ? undefined : t('account.credits.emptyDescription')} data-testid="credits-empty" /> }}
          columns={[
            { key: 'reason', title: t('account.credits.reason'), dataIndex: 'reason', render: (reason: CreditMovement['reason']) => <Tag>{t(`account.credits.reasons.${reason}`)}</Tag> },
            {
              key: 'delta',
              title: t('account.credits.delta'),
              dataIndex: 'delta',
              align: 'right',
              render: (delta: number) => <Typography.Text type={delta < 0 ? 'danger' : 'success'}>{delta > 0 ? `+${delta}` : String(delta)}</Typography.Text>,
            },
            { key: 'balanceAfter', title: t('account.credits.balanceAfter'), dataIndex: 'balanceAfter', align: 'right' },
            { key: 'reference', title: t('account.credits.reference'), dataIndex: 'reference', responsive: ['lg'], render: (value: string | null) => (value ? <Typography.Text code>{value}</Typography.Text> : '') },
            { key: 'createdAt', title: t('account.credits.time'), dataIndex: 'createdAt', render: (value: string) => formatDateTime(value, i18n.language) },
          ]}
        />
      </Card>
    </Flex>
  );
}

/** Usage records: one row per answer — app, model, prompt and answer, tokens and credits. */
export function UsageTab() {
  const { t, i18n } = useTranslation();
  const list = usePagedList<UsageRecord>(fetchUsage);
  const [apps, setApps] = useState<Record<string, string>>({});

  useEffect(() => {
    void endpoints.apiAccessApps({ silent: true }).then((result) => {
      if (result.ok) setApps(Object.fromEntries(result.data.items.map((app) => [app.id, app.name])));
    });
  }, []);

  return (
    <Card
      className="pl-card-plain"
      title={t('account.usage.title')}
      extra={<Button icon={<ReloadOutlined />} onClick={list.reload} loading={list.loading}>{t('common.refresh')}</Button>}
    >
      <Table<UsageRecord>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        data-testid="usage-table"
        locale={{ emptyText: <EmptyState compact title={list.failed ? t('account.records.loadFailed') : t('account.records.usageTitle')} description={list.failed ? undefined : t('account.records.usageDescription')} data-testid="usage-empty" /> }}
        columns={[
          { key: 'createdAt', title: t('account.usage.time'), dataIndex: 'createdAt', render: (value: string) => formatDateTime(value, i18n.language) },
          {
            key: 'app',
            title: t('account.usage.app'),
            render: (_value, record) => (record.appId ? (apps[record.appId] ?? <Typography.Text code>{record.appId}</Typography.Text>) : <Typography.Text type="secondary">—</Typography.Text>),
          },
          { key: 'model', title: t('account.usage.model'), dataIndex: 'model', render: (value: string) => <Typography.Text code>{value}</Typography.Text> },
          {
            key: 'exchange',
            title: t('account.usage.exchange'),
            render: (_value, record) => (
              <div className="pl-usage-exchange">
                <Typography.Paragraph ellipsis={{ rows: 1, tooltip: record.prompt }} style={{ margin: 0, maxWidth: 360 }}>
                  <Typography.Text type="secondary">{t('account.usage.prompt')} </Typography.Text>
                  {record.prompt}
                </Typography.Paragraph>
                <Typography.Paragraph ellipsis={{ rows: 1, tooltip: record.answer }} style={{ margin: 0, maxWidth: 360 }}>
                  <Typography.Text type="secondary">{t('account.usage.answer')} </Typography.Text>
                  {record.answer}
                </Typography.Paragraph>
              </div>
            ),
          },
          {
            key: 'tokens',
            title: t('account.usage.tokens'),
            align: 'right',
            render: (_value, record) => (
              <Typography.Text title={t('account.usage.tokensDetail', { prompt: record.promptTokens, completion: record.completionTokens })}>
                {record.promptTokens + record.completionTokens}
              </Typography.Text>
            ),
          },
          { key: 'credits', title: t('account.usage.credits'), dataIndex: 'credits', align: 'right' },
        ]}
      />
    </Card>
  );
}
