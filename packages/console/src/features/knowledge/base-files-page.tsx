import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, FileAddOutlined, ReloadOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { Button, Flex, Popconfirm, Table, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { EmptyState } from "../../components/empty-state";
import { FileStatusTag } from "./file-status-tag";
import { fileNameRule } from "./form-helpers";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeFile } from "../../lib/api/knowledge";
import { setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { managePath, useKnowledgeBase } from "./knowledge-manage-layout";
import { hasActiveFiles, KNOWLEDGE_LIMITS } from "./knowledge-rules";
import { RenameModal } from "./rename-modal";
import { saveBlob } from "../../lib/save-blob";
import { SegmentsDrawer } from "./segments-drawer";
import { TableRowsDrawer } from "./table-rows-drawer";

const NO_FILES: KnowledgeFile[] = [];

/** How often the list is read again while a file is processing. */
export const FILES_POLL_MS = 2000;

/**
 * knowledgeManage/baseFile: the knowledge base's files with type, size, segments, tokens,
 * status and update time. Refreshed by hand (spec §4), and lightly polled while a file is
 * processing; rename, delete, open segments, continue a pending import.
 */
export function BaseFilesPage() {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { base, reload: reloadBase } = useKnowledgeBase();
  const filesKey = [...KNOWLEDGE_BASES, base.id, "files"];
  const query = useSpaceQuery({ key: filesKey, fetch: (signal) => knowledgeEndpoints.files(base.id, { signal }) });
  const files = query.data ?? NO_FILES;
  const loading = query.isFetching;
  const loadFailed = query.isError;
  const setFiles = (update: (current: KnowledgeFile[]) => KnowledgeFile[]) => setSpaceData<KnowledgeFile[]>(filesKey, (current) => current && update(current));
  const [renaming, setRenaming] = useState<KnowledgeFile>();
  const [exporting, setExporting] = useState<string>();
  const openFileId = params.get("file") ?? undefined;
  const openFile = files.find((file) => file.id === openFileId);
  const wasActive = useRef(false);
  const [reads, setReads] = useState(0);

  // A quiet read (polling, a drawer's change) says nothing when it fails and keeps what is shown.
  const { refetch } = query;
  const load = useCallback(
    async (quiet = false) => {
      if (!quiet) {
        await refetch();
        return;
      }
      const result = await knowledgeEndpoints.files(base.id, { silent: true });
      if (result.ok) setSpaceData<KnowledgeFile[]>([...KNOWLEDGE_BASES, base.id, "files"], () => result.data);
      // An unchanged answer keeps the cached list as it was: count the reads so polling goes on.
      setReads((count) => count + 1);
    },
    [base.id, refetch],
  );

  // Light polling while something is processing; the totals of the base move when it ends.
  const active = hasActiveFiles(files);
  useEffect(() => {
    if (!active) {
      if (wasActive.current) void reloadBase();
      wasActive.current = false;
      return undefined;
    }
    wasActive.current = true;
    const timer = setTimeout(() => void load(true), FILES_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, files, reads, load, reloadBase]);

  const setOpenFile = (fileId?: string) => {
    const next = new URLSearchParams(params);
    if (fileId) next.set("file", fileId);
    else next.delete("file");
    setParams(next, { replace: true });
  };

  const exportFile = async (file: KnowledgeFile) => {
    setExporting(file.id);
    try {
      const result = await knowledgeEndpoints.exportFile(file.id);
      if (result.ok) saveBlob(result.data.blob, result.data.fileName ?? file.name);
    } finally {
      setExporting(undefined);
    }
  };

  const remove = async (file: KnowledgeFile) => {
    const result = await knowledgeEndpoints.removeFile(file.id);
    if (!result.ok) return;
    setFiles((current) => current.filter((item) => item.id !== file.id));
    feedback.success(t("knowledge.files.deleted", { name: file.name }));
    void reloadBase();
  };

  // The fixed columns (100 + 85 + 95 + 80 + 150 + 150 + 200 = 860) and at least 200 for the
  // name: at 1440 px the whole table fits; narrower, it scrolls under the fixed action column.
  const FILE_TABLE_MIN_WIDTH = 1060;
  const columns: ColumnsType<KnowledgeFile> = [
    {
      key: "name",
      title: t("knowledge.files.columns.name"),
      // No width: the name takes what the other columns leave, cut with an ellipsis.
      render: (_, file) => (
        <Flex vertical gap={2} className="pl-kb-file-name">
          {file.status === "effective" || file.status === "processing" ? (
            <Typography.Link onClick={() => setOpenFile(file.id)} ellipsis title={file.name} data-testid="file-name">
              {file.name}
            </Typography.Link>
          ) : (
            <Typography.Text ellipsis={{ tooltip: file.name }} data-testid="file-name">
              {file.name}
            </Typography.Text>
          )}
          {file.source && file.source !== file.name ? (
            <Typography.Text type="secondary" className="pl-kb-muted" ellipsis={{ tooltip: file.source }}>
              {file.source}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    { key: "type", title: t("knowledge.files.columns.type"), width: 100, render: (_, file) => <Tag>{t(`knowledge.fileTypes.${file.type}`)}</Tag> },
    { key: "size", title: t("knowledge.files.columns.size"), width: 85, align: "right", render: (_, file) => file.sizeKb.toLocaleString(language) },
    {
      key: "segments",
      title: t("knowledge.files.columns.segments"),
      width: 95,
      align: "right",
      render: (_, file) => <span data-testid="file-segments">{file.chunkCount.toLocaleString(language)}</span>,
    },
    { key: "tokens", title: t("knowledge.files.columns.tokens"), width: 80, align: "right", render: (_, file) => file.tokenCount.toLocaleString(language) },
    {
      key: "status",
      title: t("knowledge.files.columns.status"),
      width: 150,
      render: (_, file) => <FileStatusTag status={file.status} progress={file.progress} failureReason={file.failureReason} data-testid="file-status" />,
    },
    { key: "updated", title: t("knowledge.files.columns.updated"), width: 150, render: (_, file) => formatDateTime(file.updatedAt, language) },
    {
      key: "actions",
      title: t("knowledge.files.columns.actions"),
      // Fixed to the right edge: when the table is wider than the page, the other columns
      // scroll under it and the file's actions stay in view.
      width: 200,
      fixed: "right",
      render: (_, file) => (
        <Flex gap={0} data-testid="file-actions">
          {file.status === "pending" ? (
            <Tooltip title={t("knowledge.files.continueHint")}>
              <Button
                type="link"
                size="small"
                icon={<EyeOutlined />}
                onClick={() => navigate(managePath("importFile", base.id, { file: file.id }))}
                data-testid="file-continue"
              >
                {t("knowledge.files.continue")}
              </Button>
            </Tooltip>
          ) : (
            <Button
              type="link"
              size="small"
              icon={<UnorderedListOutlined />}
              disabled={file.status === "failed"}
              onClick={() => setOpenFile(file.id)}
              data-testid="file-segments-open"
            >
              {t(file.type === "table" ? "knowledge.files.rows" : "knowledge.files.segments")}
            </Button>
          )}
          <Tooltip title={t("knowledge.files.rename")}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setRenaming(file)}
              aria-label={t("knowledge.files.rename")}
              data-testid="file-rename"
            />
          </Tooltip>
          <Tooltip title={t("knowledge.files.exportHint")}>
            <Button
              type="link"
              size="small"
              icon={<DownloadOutlined />}
              loading={exporting === file.id}
              onClick={() => void exportFile(file)}
              aria-label={t("knowledge.files.export")}
              data-testid="file-export"
            />
          </Tooltip>
          <Popconfirm
            title={t("knowledge.files.deleteTitle")}
            description={t("knowledge.files.deleteDescription", { name: file.name })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, "data-testid": "file-delete-confirm" }}
            onConfirm={() => remove(file)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid="file-delete" />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  const importButton = (
    <Button type="primary" icon={<FileAddOutlined />} onClick={() => navigate(managePath("importFile", base.id))} data-testid="files-import">
      {t("knowledge.files.import")}
    </Button>
  );

  return (
    <div className="pl-card pl-kb-panel" data-testid="knowledge-files">
      <Flex justify="space-between" align="center" gap={12} wrap className="pl-kb-panel__head">
        <div>
          <Typography.Title level={5} className="pl-kb-panel__title">
            {t("knowledge.files.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{active ? t("knowledge.files.polling") : t("knowledge.files.hint")}</Typography.Text>
        </div>
        <Flex gap={8}>
          <Button icon={<ReloadOutlined />} loading={loading && files.length > 0} onClick={() => void load()} data-testid="files-refresh">
            {t("common.refresh")}
          </Button>
          {importButton}
        </Flex>
      </Flex>
      {loadFailed && files.length === 0 ? (
        <EmptyState
          compact
          title={t("knowledge.files.loadFailed")}
          action={<Button onClick={() => void load()}>{t("common.retry")}</Button>}
          data-testid="files-load-failed"
        />
      ) : !loading && files.length === 0 ? (
        <EmptyState
          compact
          title={t("knowledge.files.emptyTitle")}
          description={t("knowledge.files.emptyDescription")}
          action={importButton}
          data-testid="files-empty"
        />
      ) : (
        <Table<KnowledgeFile>
          rowKey="id"
          size="middle"
          loading={loading && files.length === 0}
          columns={columns}
          dataSource={files}
          pagination={files.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          tableLayout="fixed"
          scroll={{ x: FILE_TABLE_MIN_WIDTH }}
          onRow={(file) => ({ "data-testid": `file-row-${file.name}` }) as HTMLAttributes<HTMLTableRowElement>}
          data-testid="files-table"
        />
      )}
      <SegmentsDrawer file={openFile?.type === "table" ? undefined : openFile} onClose={() => setOpenFile()} onChanged={() => void load(true)} />
      <TableRowsDrawer file={openFile?.type === "table" ? openFile : undefined} onClose={() => setOpenFile()} onChanged={() => void load(true)} />
      <RenameModal
        item={renaming}
        title={t("knowledge.files.renameTitle")}
        label={t("knowledge.files.nameLabel")}
        extra={t("knowledge.rules.fileNameHelp", { max: KNOWLEDGE_LIMITS.fileNameMax })}
        maxLength={KNOWLEDGE_LIMITS.fileNameMax}
        rule={fileNameRule()}
        save={knowledgeEndpoints.renameFile}
        inputTestId="file-rename-input"
        saveTestId="file-rename-save"
        onClose={() => setRenaming(undefined)}
        onRenamed={(file) => {
          setRenaming(undefined);
          setFiles((current) => current.map((item) => (item.id === file.id ? file : item)));
          feedback.success(t("knowledge.files.renamed", { name: file.name }));
        }}
      />
    </div>
  );
}
