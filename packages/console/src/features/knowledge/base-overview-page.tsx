import { FileAddOutlined, FileSearchOutlined, SettingOutlined } from "@ant-design/icons";
import { Alert, Button, Col, Descriptions, Flex, List, Row, Statistic, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { formatDateTime } from "../../lib/format";
import { FileStatusTag, type FileStatus } from "./file-status-tag";
import { KNOWLEDGE_BASES, knowledgeEndpoints } from "../../lib/api/knowledge";
import { useSpaceQuery } from "../../lib/api/query";
import { managePath, useKnowledgeBase } from "./knowledge-manage-layout";

const STATUSES: readonly FileStatus[] = ["effective", "processing", "pending", "failed"];
const RECENT = 5;

/**
 * knowledgeManage/baseAll: the knowledge base at a glance: totals (files, segments, tokens),
 * files by status, the embedding model (with a note when it is the offline lexical fallback),
 * chunking, the latest files, and the next steps.
 */
export function BaseOverviewPage() {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const navigate = useNavigate();
  const { base } = useKnowledgeBase();
  const files = useSpaceQuery({ key: [...KNOWLEDGE_BASES, base.id, "files"], fetch: (signal) => knowledgeEndpoints.files(base.id, { signal }) }).data;

  // The totals move as files are imported elsewhere: opening the overview reads the base afresh with the files.
  useSpaceQuery({ key: [...KNOWLEDGE_BASES, base.id], fetch: (signal) => knowledgeEndpoints.get(base.id, { silent: true, signal }) });

  const counts = useMemo(() => {
    const byStatus = new Map<FileStatus, number>(STATUSES.map((status) => [status, 0]));
    let segments = 0;
    for (const file of files ?? []) {
      byStatus.set(file.status, (byStatus.get(file.status) ?? 0) + 1);
      segments += file.chunkCount;
    }
    return { byStatus, segments };
  }, [files]);

  const lexical = base.lexicalEmbedder;
  return (
    <Flex vertical gap={16} data-testid="knowledge-overview">
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <div className="pl-card pl-kb-stat">
            <Statistic title={t("knowledge.overview.files")} value={base.fileCount} data-testid="overview-files" />
          </div>
        </Col>
        <Col xs={12} md={6}>
          <div className="pl-card pl-kb-stat">
            <Statistic title={t("knowledge.overview.segments")} value={files ? counts.segments : "–"} data-testid="overview-segments" />
          </div>
        </Col>
        <Col xs={12} md={6}>
          <div className="pl-card pl-kb-stat">
            <Statistic title={t("knowledge.overview.tokens")} value={base.tokenCount} data-testid="overview-tokens" />
          </div>
        </Col>
        <Col xs={12} md={6}>
          <div className="pl-card pl-kb-stat">
            <Typography.Text type="secondary">{t("knowledge.overview.byStatus")}</Typography.Text>
            <Flex vertical gap={2} className="pl-kb-stat__statuses">
              {STATUSES.map((status) => (
                <Flex key={status} justify="space-between">
                  <Typography.Text>{t(`knowledge.status.${status}`)}</Typography.Text>
                  <Typography.Text strong data-testid={`overview-status-${status}`}>
                    {files ? counts.byStatus.get(status) : "–"}
                  </Typography.Text>
                </Flex>
              ))}
            </Flex>
          </div>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <div className="pl-card pl-kb-panel">
            <Typography.Title level={5} className="pl-kb-panel__title">
              {t("knowledge.overview.configuration")}
            </Typography.Title>
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: "model",
                  label: t("knowledge.overview.embeddingModel"),
                  children: (
                    <span data-testid="overview-model">
                      {lexical ? t("knowledge.overview.lexicalModel") : (base.embeddingModelLabel ?? base.embeddingModel)}
                    </span>
                  ),
                },
                {
                  key: "chunking",
                  label: t("knowledge.overview.chunking"),
                  children: t("knowledge.overview.chunkingValue", { chunkTokens: base.chunkTokens, chunkOverlap: base.chunkOverlap }),
                },
                { key: "updated", label: t("knowledge.overview.updated"), children: formatDateTime(base.updatedAt, language) },
              ]}
            />
            {lexical ? <Alert type="warning" showIcon className="pl-kb-alert" title={t("knowledge.lexicalNote")} data-testid="overview-lexical" /> : null}
            <Flex gap={8} wrap className="pl-kb-actions">
              <Button type="primary" icon={<FileAddOutlined />} onClick={() => navigate(managePath("importFile", base.id))} data-testid="overview-import">
                {t("knowledge.files.import")}
              </Button>
              <Button icon={<FileSearchOutlined />} onClick={() => navigate(managePath("retrievalFile", base.id))}>
                {t("knowledge.tabs.retrievalFile")}
              </Button>
              <Button icon={<SettingOutlined />} onClick={() => navigate(managePath("baseSetting", base.id))}>
                {t("knowledge.tabs.baseSetting")}
              </Button>
            </Flex>
          </div>
        </Col>
        <Col xs={24} lg={12}>
          <div className="pl-card pl-kb-panel">
            <Flex justify="space-between" align="center">
              <Typography.Title level={5} className="pl-kb-panel__title">
                {t("knowledge.overview.recent")}
              </Typography.Title>
              <Button type="link" onClick={() => navigate(managePath("baseFile", base.id))} data-testid="overview-all-files">
                {t("knowledge.overview.allFiles")}
              </Button>
            </Flex>
            <List
              loading={!files}
              dataSource={(files ?? []).slice(0, RECENT)}
              locale={{ emptyText: t("knowledge.files.emptyTitle") }}
              renderItem={(file) => (
                <List.Item extra={<FileStatusTag status={file.status} progress={file.progress} failureReason={file.failureReason} />}>
                  <List.Item.Meta
                    title={file.name}
                    description={t("knowledge.overview.fileFacts", {
                      type: t(`knowledge.fileTypes.${file.type}`),
                      segments: file.chunkCount,
                      tokens: file.tokenCount,
                    })}
                  />
                </List.Item>
              )}
            />
          </div>
        </Col>
      </Row>
    </Flex>
  );
}
