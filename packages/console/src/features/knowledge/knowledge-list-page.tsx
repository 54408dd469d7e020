import { BookOutlined, DeleteOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { Button, Card, Col, Flex, Form, Input, Popconfirm, Row, Skeleton, Tooltip, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { EmptyState } from "../../components/empty-state";
import { FormDialog } from "../../components/form-dialog";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { PageHeader } from "../../components/page-header";
import { KnowledgeBaseFields, knowledgeBaseBody, showKnowledgeBaseError, type KnowledgeBaseValues } from "./knowledge-base-form";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeBase } from "../../lib/api/knowledge";
import { managePath } from "./knowledge-manage-layout";
import { DEFAULT_CHUNKING, filterByName, formatTokens } from "./knowledge-rules";
import "./knowledge.css";

/**
 * /console/knowledge: the space's knowledge bases as cards (name, description, files, tokens,
 * updated), a name filter, create in a modal, and delete after a confirmation. A card opens
 * knowledge management for that base.
 */
export function KnowledgeListPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useSpaceQuery({ key: KNOWLEDGE_BASES, fetch: (signal) => knowledgeEndpoints.list({ signal }) });
  const bases = useMemo(() => query.data ?? [], [query.data]);
  const loading = query.isFetching;
  const loadFailed = query.isError;
  const load = () => query.refetch();
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);

  const shown = useMemo(() => filterByName(bases, search), [bases, search]);

  const remove = async (base: KnowledgeBase) => {
    const result = await knowledgeEndpoints.remove(base.id);
    if (!result.ok) return;
    await invalidateSpace(KNOWLEDGE_BASES);
    feedback.success(t("knowledge.list.deleted", { name: base.name }));
  };

  const createButton = (testId: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid={testId}>
      {t("knowledge.list.create")}
    </Button>
  );

  let body;
  if (loading && bases.length === 0) {
    body = (
      <Row gutter={[16, 16]}>
        {[0, 1, 2].map((index) => (
          <Col key={index} xs={24} md={12} xl={8}>
            <div className="pl-card pl-kb-panel">
              <Skeleton active paragraph={{ rows: 2 }} />
            </div>
          </Col>
        ))}
      </Row>
    );
  } else if (loadFailed && bases.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          title={t("knowledge.list.loadFailedTitle")}
          description={t("knowledge.list.loadFailedDescription")}
          action={
            <Button onClick={() => void load()} data-testid="knowledge-retry">
              {t("common.retry")}
            </Button>
          }
          data-testid="knowledge-load-failed"
        />
      </div>
    );
  } else if (bases.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          icon={<BookOutlined className="pl-empty__glyph" />}
          title={t("knowledge.list.emptyTitle")}
          description={t("knowledge.list.emptyDescription")}
          action={createButton("knowledge-create-empty")}
          data-testid="knowledge-empty"
        />
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          compact
          title={t("knowledge.list.noMatchTitle", { search: search.trim() })}
          description={t("knowledge.list.noMatchDescription")}
          data-testid="knowledge-no-match"
        />
      </div>
    );
  } else {
    body = (
      <Row gutter={[16, 16]} data-testid="knowledge-list">
        {shown.map((base) => (
          <Col key={base.id} xs={24} md={12} xl={8}>
            <Card
              hoverable
              className="pl-kb-card"
              onClick={() => navigate(managePath("baseAll", base.id))}
              data-testid={`knowledge-card-${base.id}`}
              actions={[
                <Button
                  key="open"
                  type="text"
                  onClick={(event) => {
                    event.stopPropagation();
                    navigate(managePath("baseFile", base.id));
                  }}
                  data-testid="knowledge-card-files"
                >
                  {t("knowledge.list.files")}
                </Button>,
                <span key="delete" onClick={(event) => event.stopPropagation()}>
                  <Popconfirm
                    title={t("knowledge.list.deleteTitle")}
                    description={t("knowledge.list.deleteDescription", { name: base.name })}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true, "data-testid": "knowledge-delete-confirm" }}
                    onConfirm={() => remove(base)}
                  >
                    <Button type="text" danger icon={<DeleteOutlined />} data-testid="knowledge-card-delete">
                      {t("common.delete")}
                    </Button>
                  </Popconfirm>
                </span>,
              ]}
            >
              <Flex gap={12} align="flex-start">
                <span className="pl-kb-card__icon">
                  <BookOutlined />
                </span>
                <div className="pl-kb-card__text">
                  <Typography.Text strong className="pl-kb-card__name" ellipsis={{ tooltip: base.name }} data-testid="knowledge-card-name">
                    {base.name}
                  </Typography.Text>
                  <Typography.Paragraph type="secondary" className="pl-kb-card__description" ellipsis={{ rows: 2 }}>
                    {base.description || t("knowledge.list.noDescription")}
                  </Typography.Paragraph>
                </div>
              </Flex>
              <Flex gap={16} wrap className="pl-kb-card__facts">
                <Typography.Text type="secondary" data-testid="knowledge-card-files-count">
                  {t("knowledge.list.fileCount", { count: base.fileCount })}
                </Typography.Text>
                <Tooltip title={t("knowledge.list.tokensExact", { count: base.tokenCount })}>
                  <Typography.Text type="secondary">{t("knowledge.list.tokens", { value: formatTokens(base.tokenCount, i18n.language) })}</Typography.Text>
                </Tooltip>
                <Typography.Text type="secondary">{t("knowledge.list.updated", { time: formatDateTime(base.updatedAt, i18n.language) })}</Typography.Text>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    );
  }

  return (
    <div className="pl-kb" data-testid="knowledge-page">
      <PageHeader
        title={<span data-testid="knowledge-title">{t("knowledge.list.title")}</span>}
        subtitle={t("knowledge.list.subtitle")}
        extra={
          <>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t("knowledge.list.search")}
              aria-label={t("knowledge.list.search")}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="pl-kb-search"
              data-testid="knowledge-search"
            />
            <Button icon={<ReloadOutlined />} onClick={() => void load()} data-testid="knowledge-refresh">
              {t("common.refresh")}
            </Button>
            {createButton("knowledge-create")}
          </>
        }
      />
      {body}
      <CreateKnowledgeBaseModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(base) => {
          setCreating(false);
          void invalidateSpace(KNOWLEDGE_BASES);
          feedback.success(t("knowledge.list.created", { name: base.name }));
          navigate(managePath("importFile", base.id));
        }}
      />
    </div>
  );
}

function CreateKnowledgeBaseModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (base: KnowledgeBase) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<KnowledgeBaseValues>();
  return (
    <FormDialog<KnowledgeBaseValues>
      open={open}
      form={form}
      title={t("knowledge.create.title")}
      okText={t("knowledge.create.submit")}
      submitTestId="kb-create-submit"
      formTestId="kb-create-form"
      forceRender
      initialValues={{ name: "", description: "", ...DEFAULT_CHUNKING }}
      onClose={onClose}
      onSubmit={async (values) => {
        const result = await knowledgeEndpoints.create(knowledgeBaseBody(values));
        if (!result.ok) {
          showKnowledgeBaseError(form, result.error);
          return false;
        }
        form.resetFields();
        onCreated(result.data);
        return true;
      }}
    >
      <KnowledgeBaseFields />
    </FormDialog>
  );
}
