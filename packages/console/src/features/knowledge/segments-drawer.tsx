import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Empty, Flex, Input, List, Modal, Popconfirm, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeFile, type KnowledgeSegment } from "../../lib/api/knowledge";
import { KNOWLEDGE_LIMITS } from "./knowledge-rules";

const PAGE_SIZE = 20;

/** Props of {@link SegmentsDrawer}. */
export interface SegmentsDrawerProps {
  /** The file whose segments are open; undefined closes the drawer. */
  file?: KnowledgeFile;
  onClose: () => void;
  /** Segments changed (counts and tokens of the file move). */
  onChanged: () => void;
}

/**
 * A file's segments in a drawer: paged, each with its tokens, an enabled switch, edit and
 * delete; plus add. While the file is processing the server refuses edits and its message
 * ("Knowledge base updating, please wait") is shown as it says it.
 */
export function SegmentsDrawer({ file, onClose, onChanged }: SegmentsDrawerProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ segment?: KnowledgeSegment; content: string }>();
  const [saving, setSaving] = useState(false);
  const fileId = file?.id;
  const status = file?.status;

  // Another file, or indexing that ends while the drawer is open (it changes what the file holds), starts again on page 1.
  const [shownFor, setShownFor] = useState(`${fileId}:${status}`);
  if (shownFor !== `${fileId}:${status}`) {
    setShownFor(`${fileId}:${status}`);
    setPage(1);
  }
  const fileKey = [...KNOWLEDGE_BASES, "segments", fileId];
  const pageKey = [...fileKey, status, page];
  const query = useSpaceQuery({
    key: pageKey,
    fetch: (signal) => knowledgeEndpoints.segments(fileId ?? "", page, PAGE_SIZE, { signal }),
    enabled: Boolean(fileId),
  });
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const loading = query.isFetching;
  const reload = () => invalidateSpace(fileKey);

  const replace = (segment: KnowledgeSegment) =>
    setSpaceData<NonNullable<typeof query.data>>(pageKey, (current) =>
      current ? { ...current, items: current.items.map((item) => (item.id === segment.id ? segment : item)) } : current,
    );

  const toggle = async (segment: KnowledgeSegment, enabled: boolean) => {
    const result = await knowledgeEndpoints.updateSegment(segment.id, { enabled });
    if (result.ok) replace(result.data);
  };

  const remove = async (segment: KnowledgeSegment) => {
    const result = await knowledgeEndpoints.removeSegment(segment.id);
    if (!result.ok) return;
    feedback.success(t("knowledge.segments.deleted"));
    const lastOnPage = items.length === 1 && page > 1;
    const next = lastOnPage ? page - 1 : page;
    setPage(next);
    await reload();
    onChanged();
  };

  const save = async () => {
    if (!editing || !fileId) return;
    const content = editing.content.trim();
    if (!content) {
      feedback.warning(t("knowledge.segments.contentRequired"));
      return;
    }
    setSaving(true);
    try {
      const result = editing.segment
        ? await knowledgeEndpoints.updateSegment(editing.segment.id, { content })
        : await knowledgeEndpoints.addSegment(fileId, content);
      if (!result.ok) return;
      setEditing(undefined);
      feedback.success(t(editing.segment ? "knowledge.segments.saved" : "knowledge.segments.added"));
      if (editing.segment) replace(result.data);
      else {
        const last = Math.max(1, Math.ceil((total + 1) / PAGE_SIZE));
        setPage(last);
        await reload();
      }
      onChanged();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={Boolean(file)}
      onClose={onClose}
      size="large"
      title={file ? t("knowledge.segments.title", { name: file.name }) : ""}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ content: "" })} data-testid="segment-add">
          {t("knowledge.segments.add")}
        </Button>
      }
      data-testid="segments-drawer"
    >
      {file?.status === "processing" ? (
        <Alert type="info" showIcon className="pl-kb-alert" title={t("knowledge.segments.processing")} data-testid="segments-processing" />
      ) : null}
      <List
        loading={loading}
        dataSource={items}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("knowledge.segments.empty")} /> }}
        pagination={
          total > PAGE_SIZE
            ? {
                current: page,
                pageSize: PAGE_SIZE,
                total,
                showSizeChanger: false,
                onChange: (next) => {
                  setPage(next);
                },
              }
            : false
        }
        header={
          <Typography.Text type="secondary" data-testid="segments-total">
            {t("knowledge.segments.total", { count: total })}
          </Typography.Text>
        }
        renderItem={(segment) => (
          <List.Item className={segment.enabled ? "pl-kb-segment" : "pl-kb-segment pl-kb-segment--disabled"} data-testid="segment-item">
            <div className="pl-kb-segment__body">
              <Flex justify="space-between" align="center" gap={8} wrap>
                <Flex gap={6} align="center">
                  <Tag>#{segment.ordinal + 1}</Tag>
                  <Typography.Text type="secondary">{t("knowledge.segments.tokens", { count: segment.tokens })}</Typography.Text>
                  {segment.enabled ? null : <Tag color="default">{t("knowledge.segments.disabled")}</Tag>}
                </Flex>
                <Flex gap={4} align="center">
                  <Switch
                    size="small"
                    checked={segment.enabled}
                    onChange={(checked) => void toggle(segment, checked)}
                    aria-label={t("knowledge.segments.enabled")}
                    data-testid="segment-enabled"
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => setEditing({ segment, content: segment.content })}
                    data-testid="segment-edit"
                  >
                    {t("knowledge.segments.edit")}
                  </Button>
                  <Popconfirm
                    title={t("knowledge.segments.deleteTitle")}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(segment)}
                  >
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid="segment-delete" />
                  </Popconfirm>
                </Flex>
              </Flex>
              <Typography.Paragraph className="pl-kb-segment__content" ellipsis={{ rows: 5, expandable: "collapsible" }} data-testid="segment-content">
                {segment.content}
              </Typography.Paragraph>
            </div>
          </List.Item>
        )}
      />
      <Modal
        open={Boolean(editing)}
        title={editing?.segment ? t("knowledge.segments.editTitle", { ordinal: editing.segment.ordinal + 1 }) : t("knowledge.segments.addTitle")}
        okText={t("common.save")}
        cancelText={t("common.cancel")}
        confirmLoading={saving}
        onOk={() => void save()}
        onCancel={() => setEditing(undefined)}
        okButtonProps={{ "data-testid": "segment-save" }}
        destroyOnHidden
      >
        <Input.TextArea
          autoSize={{ minRows: 6, maxRows: 16 }}
          value={editing?.content ?? ""}
          maxLength={KNOWLEDGE_LIMITS.segmentMaxCharacters}
          showCount
          onChange={(event) => setEditing((current) => (current ? { ...current, content: event.target.value } : current))}
          placeholder={t("knowledge.segments.contentPlaceholder")}
          aria-label={t("knowledge.segments.content")}
          data-testid="segment-content-input"
        />
      </Modal>
    </Drawer>
  );
}
