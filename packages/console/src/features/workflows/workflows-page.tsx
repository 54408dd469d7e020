import { CopyOutlined, DeleteOutlined, EditOutlined, NodeIndexOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { Button, Flex, Input, Popconfirm, Table, Tag, Tooltip, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { invalidateSpace, mapData, useSpaceResource } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { AppAvatar } from "../../components/app-avatar";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { ExportButton, ImportButton } from "../../components/portable-transfer";
import { useAppOptions } from "../apps/use-app-options";
import { workflowEndpoints, type WorkflowSummary } from "../../lib/api/workflows";
import { WorkflowInfoModal, type WorkflowInfoValues } from "./workflow-info-form";
import "./workflows.css";

/** Every workflow key of the space; the list is below it (see lib/api/query). */
export const WORKFLOWS = ["workflows"];
/** The list of the workflows page. */
export const WORKFLOWS_LIST = [...WORKFLOWS, "list"];

/** Where the editor of a workflow lives. */
export const workflowEditorPath = (id: string) => `${PATHS.workflow}?id=${encodeURIComponent(id)}`;

/**
 * /console/workflows: the space's workflows (avatar, name, category, description, published,
 * updated) with create, info edit, copy, delete after a confirmation, and publish / cancel.
 * A name opens the editor.
 */
export function WorkflowsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { categories } = useAppOptions();
  const list = useSpaceResource({
    key: WORKFLOWS_LIST,
    fetch: (signal) => mapData(workflowEndpoints.list(1, 100, undefined, { signal }), (page) => page.items),
  });
  const items = useMemo(() => list.data ?? [], [list.data]);
  const { loading, loadFailed, reload: load, set: setItems } = list;
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<WorkflowSummary>();
  const [busy, setBusy] = useState<string>();

  const editingInitial = useMemo(
    () => (editing ? { name: editing.name, description: editing.description, avatarUrl: editing.avatarUrl, category: editing.category } : undefined),
    [editing],
  );
  const categoryNames = useMemo(() => new Map(categories.map((category) => [category.id as string, category.name])), [categories]);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? items.filter((item) => item.name.toLowerCase().includes(needle)) : items;
  }, [items, search]);
  const replace = (next: WorkflowSummary) => setItems((current) => current.map((item) => (item.id === next.id ? { ...item, ...next } : item)));

  const withBusy = async (id: string, work: () => Promise<void>) => {
    setBusy(id);
    try {
      await work();
    } finally {
      setBusy(undefined);
    }
  };
  const copy = (item: WorkflowSummary) =>
    withBusy(item.id, async () => {
      const result = await workflowEndpoints.copy(item.id);
      if (!result.ok) return;
      setItems((current) => [result.data, ...current]);
      void invalidateSpace(WORKFLOWS);
      feedback.success(t("workflows.list.copied", { name: result.data.name }));
    });
  const remove = (item: WorkflowSummary) =>
    withBusy(item.id, async () => {
      const result = await workflowEndpoints.remove(item.id);
      if (!result.ok) return;
      setItems((current) => current.filter((entry) => entry.id !== item.id));
      void invalidateSpace(WORKFLOWS);
      feedback.success(t("workflows.list.deleted", { name: item.name }));
    });
  const togglePublish = (item: WorkflowSummary) =>
    withBusy(item.id, async () => {
      const result = item.isPublic ? await workflowEndpoints.unpublish(item.id) : await workflowEndpoints.publish(item.id);
      if (!result.ok) return;
      replace(result.data);
      feedback.success(t(result.data.isPublic ? "workflows.list.published" : "workflows.list.unpublished", { name: item.name }));
    });

  const submitInfo = async (values: WorkflowInfoValues) => {
    if (editing) {
      const result = await workflowEndpoints.updateInfo(editing.id, values);
      if (!result.ok) return { field: result.error.field, message: result.error.message };
      replace(result.data);
      setEditing(undefined);
      feedback.success(t("workflows.info.saved"));
      return undefined;
    }
    const result = await workflowEndpoints.create(values);
    if (!result.ok) return { field: result.error.field, message: result.error.message };
    setCreating(false);
    void invalidateSpace(WORKFLOWS);
    feedback.success(t("workflows.list.created", { name: result.data.name }));
    navigate(workflowEditorPath(result.data.id));
    return undefined;
  };

  const createButton = (testId: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid={testId}>
      {t("workflows.list.create")}
    </Button>
  );

  let body;
  if (loadFailed && items.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          title={t("workflows.list.loadFailedTitle")}
          description={t("workflows.list.loadFailedDescription")}
          action={
            <Button onClick={() => void load()} data-testid="workflows-retry">
              {t("common.retry")}
            </Button>
          }
          data-testid="workflows-load-failed"
        />
      </div>
    );
  } else if (!loading && items.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          icon={<NodeIndexOutlined className="pl-empty__glyph" />}
          title={t("workflows.list.emptyTitle")}
          description={t("workflows.list.emptyDescription")}
          action={createButton("workflows-create-empty")}
          data-testid="workflows-empty"
        />
      </div>
    );
  } else {
    body = (
      <Table<WorkflowSummary>
        className="pl-card pl-wf-table"
        rowKey="id"
        loading={loading}
        dataSource={shown}
        pagination={false}
        data-testid="workflows-table"
        locale={{ emptyText: t("workflows.list.noMatch", { search: search.trim() }) }}
        columns={[
          {
            title: t("workflows.list.name"),
            key: "name",
            render: (_, item) => (
              <Flex gap={10} align="center">
                <AppAvatar name={item.name} src={item.avatarUrl} size={36} />
                <Typography.Link onClick={() => navigate(workflowEditorPath(item.id))} data-testid={`workflow-open-${item.id}`}>
                  {item.name}
                </Typography.Link>
              </Flex>
            ),
          },
          { title: t("workflows.list.category"), key: "category", render: (_, item) => categoryNames.get(item.category) ?? item.category },
          {
            title: t("workflows.list.description"),
            key: "description",
            render: (_, item) => (
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: item.description }} className="pl-wf-table__description">
                {item.description}
              </Typography.Paragraph>
            ),
          },
          {
            title: t("workflows.list.publishedColumn"),
            key: "published",
            render: (_, item) => (item.isPublic ? <Tag color="success">{t("workflows.list.publishedYes")}</Tag> : <Tag>{t("workflows.list.publishedNo")}</Tag>),
          },
          { title: t("workflows.list.updated"), key: "updated", render: (_, item) => formatDateTime(item.updatedAt, i18n.language) },
          {
            title: t("workflows.list.actions"),
            key: "actions",
            render: (_, item) => (
              <Flex gap={4} align="center">
                <Tooltip title={t("workflows.list.editInfo")}>
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    onClick={() => setEditing(item)}
                    aria-label={t("workflows.list.editInfo")}
                    data-testid={`workflow-edit-${item.id}`}
                  />
                </Tooltip>
                <Tooltip title={t("common.copy")}>
                  <Button
                    type="text"
                    icon={<CopyOutlined />}
                    loading={busy === item.id}
                    onClick={() => void copy(item)}
                    aria-label={t("common.copy")}
                    data-testid={`workflow-copy-${item.id}`}
                  />
                </Tooltip>
                <ExportButton compact request={{ workflowIds: [item.id] }} data-testid={`workflow-export-${item.id}`} />
                <Button
                  type="link"
                  size="small"
                  onClick={() => void togglePublish(item)}
                  disabled={busy === item.id}
                  data-testid={`workflow-publish-${item.id}`}
                >
                  {t(item.isPublic ? "workflows.list.unpublish" : "workflows.list.publish")}
                </Button>
                <Popconfirm
                  title={t("workflows.list.deleteTitle")}
                  description={t("workflows.list.deleteDescription", { name: item.name })}
                  okText={t("common.delete")}
                  cancelText={t("common.cancel")}
                  okButtonProps={{ danger: true, "data-testid": "workflow-delete-confirm" }}
                  onConfirm={() => remove(item)}
                >
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid={`workflow-delete-${item.id}`} />
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
    );
  }

  return (
    <div className="pl-wf-list" data-testid="workflows-page">
      <PageHeader
        title={t("workflows.list.title")}
        subtitle={t("workflows.list.subtitle")}
        extra={
          <>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t("workflows.list.search")}
              aria-label={t("workflows.list.search")}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="pl-wf-search"
              data-testid="workflows-search"
            />
            <Button icon={<ReloadOutlined />} onClick={() => void load()} data-testid="workflows-refresh">
              {t("common.refresh")}
            </Button>
            <ImportButton onImported={() => void invalidateSpace(WORKFLOWS)} />
            <ExportButton request={{ space: true }} data-testid="portable-export-space" />
            {createButton("workflows-create")}
          </>
        }
      />
      {body}
      <WorkflowInfoModal
        open={creating || editing !== undefined}
        initial={editingInitial}
        onCancel={() => {
          setCreating(false);
          setEditing(undefined);
        }}
        onSubmit={submitInfo}
      />
    </div>
  );
}
