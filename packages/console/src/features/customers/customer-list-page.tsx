import { DownloadOutlined, EditOutlined, RobotOutlined, TagsOutlined } from "@ant-design/icons";
import { useInfiniteQuery } from "@tanstack/react-query";
import { App, Button, Descriptions, Drawer, Empty, Flex, Form, Input, List, Select, Space, Table, type TableColumnType, Tag, Typography } from "antd";
import { type Key, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/form-dialog";
import { CHANNEL_CLIENTS, channelEndpoints } from "../../lib/api/channel-clients";
import { CUSTOMERS, type Customer, type CustomerFilter, type CustomerPatch, customersEndpoints, TAGS } from "../../lib/api/customers";
import { invalidateSpace, spaceKey, unwrap, useSpaceQuery } from "../../lib/api/query";
import { useGrant, useSession } from "../../lib/api/session";
import { WEB_CLIENTS, clientsEndpoints } from "../../lib/api/web-clients";
import { formatDateTime } from "../../lib/format";
import { saveBlob } from "../../lib/save-blob";
import { CustomerSyncButton } from "./customer-sync-button";

/** The filters as the bar holds them (the time range as two days). */
interface Filters {
  tagIds: string[];
  channel?: string | undefined;
  clientId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  keyword?: string | undefined;
}

const PAGE = 30;

/** The filters the server takes: empty ones left out. */
export function filterOf(filters: Filters): CustomerFilter {
  return {
    ...(filters.tagIds.length ? { tagIds: filters.tagIds } : {}),
    ...(filters.channel ? { channel: filters.channel } : {}),
    ...(filters.clientId ? { clientId: filters.clientId } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.keyword?.trim() ? { keyword: filters.keyword.trim() } : {}),
  };
}

/**
 * The customer list of /console/customManage/customerList (spec §2, §7 Customers): everyone who
 * talked to an app through a channel or the widget, with the §3 fields and tags, filters, a
 * cursor "load more", a drawer with the customer's conversations, editing, batch tagging and
 * the CSV/XLSX export.
 */
export function CustomerListPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const spaceId = useSession().user?.spaceId;
  // Editing, tagging and AI tagging need customers.edit; viewers list, open and export (customers.view).
  const canEdit = useGrant("customers.edit");
  const [filters, setFilters] = useState<Filters>({ tagIds: [] });
  const [applied, setApplied] = useState<Filters>({ tagIds: [] });
  const [selected, setSelected] = useState<string[]>([]);
  const [batchTags, setBatchTags] = useState<string[]>([]);
  const [openId, setOpenId] = useState<string>();
  const [editing, setEditing] = useState<Customer>();
  const [exporting, setExporting] = useState<"csv" | "xlsx">();
  const [form] = Form.useForm<CustomerPatch>();

  const tags = useSpaceQuery({ key: TAGS, fetch: (signal) => customersEndpoints.tags({ signal }) });
  const webClients = useSpaceQuery({ key: WEB_CLIENTS, fetch: (signal) => clientsEndpoints.list({ signal, silent: true }) });
  const channelClients = useSpaceQuery({ key: CHANNEL_CLIENTS, fetch: (signal) => channelEndpoints.list({ signal, silent: true }) });
  const query = filterOf(applied);
  const pages = useInfiniteQuery({
    queryKey: spaceKey(spaceId, ...CUSTOMERS, "list", query),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => unwrap(customersEndpoints.list({ ...query, limit: PAGE, cursor: pageParam }, { signal })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const rows = useMemo(() => pages.data?.pages.flatMap((page) => page.items) ?? [], [pages.data]);
  const detail = useSpaceQuery({
    key: [...CUSTOMERS, "detail", openId],
    enabled: openId !== undefined,
    fetch: (signal) => customersEndpoints.detail(openId!, { signal }),
  });

  const clientOptions = [
    ...(webClients.data ?? []).map((client) => ({ value: client.id, label: client.name })),
    ...(channelClients.data ?? []).map((client) => ({ value: client.id, label: client.name })),
  ];
  const channelOptions = [
    { value: "web", label: t("customers.channelWeb") },
    ...[...new Set((channelClients.data ?? []).map((client) => client.kind))].map((kind) => ({ value: kind, label: kind })),
  ];
  const tagOptions = (tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.groupName} / ${tag.name}` }));

  const refresh = () => invalidateSpace(CUSTOMERS, TAGS);

  const applyTags = async (mode: "add" | "remove") => {
    const result = await customersEndpoints.mapTags({ customerIds: selected, ...(mode === "add" ? { addTagIds: batchTags } : { removeTagIds: batchTags }) });
    if (!result.ok) return;
    void message.success(t(mode === "add" ? "customers.tagsAdded" : "customers.tagsRemoved", { count: selected.length }));
    setBatchTags([]);
    await refresh();
  };

  const download = async (format: "csv" | "xlsx") => {
    setExporting(format);
    const result = await customersEndpoints.export({ filters: query, format });
    setExporting(undefined);
    if (result.ok) saveBlob(result.data.blob, result.data.fileName ?? `customers.${format}`);
  };

  const save = async (values: CustomerPatch): Promise<boolean> => {
    if (!editing) return false;
    const result = await customersEndpoints.update(editing.id, values);
    if (!result.ok) {
      form.setFields([{ name: (result.error.field as keyof CustomerPatch | undefined) ?? "nickname", errors: [result.error.message] }]);
      return false;
    }
    setEditing(undefined);
    await refresh();
    return true;
  };

  const aiTag = async (customerId: string) => {
    const result = await customersEndpoints.aiTags(customerId);
    if (!result.ok) return;
    void message.success(t("customers.aiTagged", { count: result.data.chosenTagIds.length }));
    await refresh();
  };

  const genderLabel = (gender: string) => (gender === "male" || gender === "female" ? t(`customers.gender.${gender}`) : t("customers.gender.unknown"));
  const when = (value: string | null | undefined) => formatDateTime(value, i18n.language) || "—";

  const actionsColumn: TableColumnType<Customer> = {
    title: t("customers.columns.actions"),
    key: "actions",
    fixed: "right",
    render: (_, row) => (
      <Flex gap={4}>
        <Button type="link" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`customer-edit-${row.id}`}>
          {t("customers.edit")}
        </Button>
        <Button type="link" icon={<RobotOutlined />} onClick={() => aiTag(row.id)} data-testid={`customer-ai-${row.id}`}>
          {t("customers.aiTag")}
        </Button>
      </Flex>
    ),
  };

  return (
    <div className="pl-customers" data-testid="customer-list">
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          placeholder={t("customers.filters.tags")}
          options={tagOptions}
          value={filters.tagIds}
          onChange={(tagIds) => setFilters((current) => ({ ...current, tagIds }))}
          data-testid="customer-filter-tags"
        />
        <Select
          allowClear
          style={{ minWidth: 140 }}
          placeholder={t("customers.filters.channel")}
          options={channelOptions}
          value={filters.channel}
          onChange={(channel) => setFilters((current) => ({ ...current, channel }))}
          data-testid="customer-filter-channel"
        />
        <Select
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t("customers.filters.client")}
          options={clientOptions}
          value={filters.clientId}
          onChange={(clientId) => setFilters((current) => ({ ...current, clientId }))}
          data-testid="customer-filter-client"
        />
        <Space.Compact>
          <Input
            type="date"
            aria-label={t("customers.filters.from")}
            value={filters.from ?? ""}
            onChange={(event) => setFilters((current) => ({ ...current, from: event.target.value || undefined }))}
            data-testid="customer-filter-from"
          />
          <Input
            type="date"
            aria-label={t("customers.filters.to")}
            value={filters.to ?? ""}
            onChange={(event) => setFilters((current) => ({ ...current, to: event.target.value || undefined }))}
            data-testid="customer-filter-to"
          />
        </Space.Compact>
        <Input.Search
          allowClear
          style={{ width: 220 }}
          placeholder={t("customers.filters.keyword")}
          value={filters.keyword ?? ""}
          onChange={(event) => setFilters((current) => ({ ...current, keyword: event.target.value }))}
          onSearch={() => setApplied(filters)}
          data-testid="customer-filter-keyword"
        />
        <Button type="primary" onClick={() => setApplied(filters)} data-testid="customer-filter-apply">
          {t("customers.filters.apply")}
        </Button>
        <Button
          onClick={() => {
            setFilters({ tagIds: [] });
            setApplied({ tagIds: [] });
          }}
        >
          {t("customers.filters.reset")}
        </Button>
        <span style={{ flex: 1 }} />
        <CustomerSyncButton />
        <Button icon={<DownloadOutlined />} loading={exporting === "csv"} onClick={() => download("csv")} data-testid="customer-export-csv">
          {t("customers.exportCsv")}
        </Button>
        <Button icon={<DownloadOutlined />} loading={exporting === "xlsx"} onClick={() => download("xlsx")} data-testid="customer-export-xlsx">
          {t("customers.exportXlsx")}
        </Button>
      </Flex>
      {canEdit && selected.length > 0 ? (
        <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }} data-testid="customer-batch">
          <Typography.Text>{t("customers.selected", { count: selected.length })}</Typography.Text>
          <Select
            mode="multiple"
            style={{ minWidth: 240 }}
            placeholder={t("customers.batchTags")}
            options={tagOptions}
            value={batchTags}
            onChange={setBatchTags}
            data-testid="customer-batch-tags"
          />
          <Button type="primary" icon={<TagsOutlined />} disabled={batchTags.length === 0} onClick={() => applyTags("add")} data-testid="customer-batch-add">
            {t("customers.addTags")}
          </Button>
          <Button disabled={batchTags.length === 0} onClick={() => applyTags("remove")} data-testid="customer-batch-remove">
            {t("customers.removeTags")}
          </Button>
        </Flex>
      ) : null}
      <Table<Customer>
        rowKey="id"
        size="middle"
        loading={pages.isFetching && !pages.isFetchingNextPage}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1200 }}
        {...(canEdit ? { rowSelection: { selectedRowKeys: selected, onChange: (keys: Key[]) => setSelected(keys as string[]) } } : {})}
        locale={{ emptyText: <Empty description={t("customers.empty")} /> }}
        data-testid="customer-table"
        columns={[
          {
            title: t("customers.columns.nickname"),
            dataIndex: "nickname",
            fixed: "left",
            render: (nickname: string, row) => (
              <Button type="link" onClick={() => setOpenId(row.id)} data-testid={`customer-open-${row.id}`}>
                {nickname || t("customers.anonymous")}
              </Button>
            ),
          },
          { title: t("customers.columns.company"), dataIndex: "company", render: (value: string) => value || "—" },
          {
            title: t("customers.columns.tags"),
            dataIndex: "tags",
            render: (list: Customer["tags"], row) => (
              <Flex gap={4} wrap data-testid={`customer-tags-${row.id}`}>
                {list.map((tag) => (
                  <Tag key={tag.id} color={tag.source === "ai" ? "purple" : "blue"} title={t(`customers.source.${tag.source}`)}>
                    {tag.name}
                  </Tag>
                ))}
              </Flex>
            ),
          },
          { title: t("customers.columns.wechat"), dataIndex: "wechat", render: (value: string) => value || "—" },
          { title: t("customers.columns.gender"), dataIndex: "gender", render: genderLabel },
          { title: t("customers.columns.remark"), dataIndex: "remark", ellipsis: true, render: (value: string) => value || "—" },
          { title: t("customers.columns.type"), dataIndex: "type", render: (value: string) => value || "—" },
          { title: t("customers.columns.channel"), dataIndex: "channel", render: (value: string, row) => `${value} · ${row.clientName}` },
          { title: t("customers.columns.createdAt"), dataIndex: "createdAt", render: when },
          { title: t("customers.columns.lastConversationAt"), dataIndex: "lastConversationAt", render: when },
          ...(canEdit ? [actionsColumn] : []),
        ]}
      />
      {pages.hasNextPage ? (
        <Flex justify="center" style={{ marginTop: 12 }}>
          <Button loading={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()} data-testid="customer-load-more">
            {t("customers.loadMore")}
          </Button>
        </Flex>
      ) : null}

      <Drawer open={openId !== undefined} width={560} title={t("customers.detailTitle")} onClose={() => setOpenId(undefined)} data-testid="customer-drawer">
        {detail.data ? (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t("customers.columns.nickname")}>{detail.data.nickname || t("customers.anonymous")}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.company")}>{detail.data.company || "—"}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.tags")}>
                <Flex gap={4} wrap>
                  {detail.data.tags.map((tag) => (
                    <Tag key={tag.id} color={tag.source === "ai" ? "purple" : "blue"}>
                      {tag.groupName} / {tag.name} · {t(`customers.source.${tag.source}`)}
                    </Tag>
                  ))}
                </Flex>
              </Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.wechat")}>{detail.data.wechat || "—"}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.gender")}>{genderLabel(detail.data.gender)}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.remark")}>{detail.data.remark || "—"}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.type")}>{detail.data.type || "—"}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.channel")}>
                {detail.data.channel} · {detail.data.clientName}
              </Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.createdAt")}>{when(detail.data.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t("customers.columns.lastConversationAt")}>{when(detail.data.lastConversationAt)}</Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              {t("customers.conversations")}
            </Typography.Title>
            <List
              size="small"
              dataSource={detail.data.conversations}
              locale={{ emptyText: t("customers.noConversations") }}
              data-testid="customer-conversations"
              renderItem={(conversation) => (
                <List.Item>
                  <List.Item.Meta
                    title={`${conversation.appName} · ${when(conversation.lastMessageAt ?? conversation.createdAt)}`}
                    description={conversation.lastMessage || "—"}
                  />
                </List.Item>
              )}
            />
          </>
        ) : null}
      </Drawer>

      <FormDialog<CustomerPatch>
        open={editing !== undefined}
        title={t("customers.editTitle")}
        okText={t("common.save")}
        form={form}
        initialValues={
          editing
            ? {
                nickname: editing.nickname,
                company: editing.company,
                wechat: editing.wechat,
                gender: (editing.gender === "male" || editing.gender === "female" ? editing.gender : "") as CustomerPatch["gender"],
                remark: editing.remark,
                type: editing.type,
              }
            : {}
        }
        onSubmit={save}
        onClose={() => setEditing(undefined)}
        submitTestId="customer-edit-submit"
        formTestId="customer-edit"
      >
        <Form.Item name="nickname" label={t("customers.columns.nickname")}>
          <Input maxLength={100} data-testid="customer-edit-nickname" />
        </Form.Item>
        <Form.Item name="company" label={t("customers.columns.company")}>
          <Input maxLength={200} data-testid="customer-edit-company" />
        </Form.Item>
        <Form.Item name="wechat" label={t("customers.columns.wechat")}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="gender" label={t("customers.columns.gender")}>
          <Select
            options={[
              { value: "", label: t("customers.gender.unknown") },
              { value: "male", label: t("customers.gender.male") },
              { value: "female", label: t("customers.gender.female") },
            ]}
          />
        </Form.Item>
        <Form.Item name="remark" label={t("customers.columns.remark")}>
          <Input.TextArea maxLength={1000} rows={3} data-testid="customer-edit-remark" />
        </Form.Item>
        <Form.Item name="type" label={t("customers.columns.type")}>
          <Input maxLength={50} />
        </Form.Item>
      </FormDialog>
    </div>
  );
}
