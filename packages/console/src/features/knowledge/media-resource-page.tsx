import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FilePdfOutlined,
  PictureOutlined,
  ReloadOutlined,
  UploadOutlined,
  VideoCameraOutlined,
} from "@ant-design/icons";
import { Button, Card, Col, Flex, Image, Modal, Pagination, Popconfirm, Row, Skeleton, Tag, Tooltip, Typography, Upload } from "antd";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { EmptyState } from "../../components/empty-state";
import { checkRule } from "./form-helpers";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeMedia } from "../../lib/api/knowledge";
import { useKnowledgeBase } from "./knowledge-manage-layout";
import { checkMedia, checkMediaName, KNOWLEDGE_LIMITS, MEDIA_EXTENSIONS } from "./knowledge-rules";
import { RenameModal } from "./rename-modal";
import { saveBlob } from "../../lib/save-blob";
import { handledByRequestLayer } from "../../lib/api/request";

const PAGE_SIZE = 24;
const ACCEPT = MEDIA_EXTENSIONS.map((extension) => `.${extension}`).join(",");
const KIND_ICONS: Record<KnowledgeMedia["kind"], ReactNode> = { image: <PictureOutlined />, document: <FilePdfOutlined />, video: <VideoCameraOutlined /> };

/** A material's bytes as an object URL, read through the SDK (the address needs the session). */
function useMediaObjectUrl(media: KnowledgeMedia | undefined, enabled: boolean): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!media || !enabled) return undefined;
    let live = true;
    let created: string | undefined;
    void knowledgeEndpoints.mediaContent(media.id, { silent: true }).then((result) => {
      if (!live || !result.ok) return;
      created = URL.createObjectURL(result.data as Blob);
      setUrl(created);
    });
    return () => {
      live = false;
      if (created) URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [media, enabled]);
  return url;
}

/**
 * knowledgeManage/mediaResource: the knowledge base's media materials (images, PDFs, videos
 * answers can attach; Q&A rows refer to them by id): upload, thumbnails, preview, rename,
 * download and delete.
 */
export function MediaResourcePage() {
  const { t } = useTranslation();
  const { base } = useKnowledgeBase();
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(0);
  const [renaming, setRenaming] = useState<KnowledgeMedia>();
  const [previewing, setPreviewing] = useState<KnowledgeMedia>();

  const mediaKey = [...KNOWLEDGE_BASES, base.id, "media"];
  const pageKey = [...mediaKey, page];
  // The last page stays shown while another loads.
  const query = useSpaceQuery({ key: pageKey, fetch: (signal) => knowledgeEndpoints.media(base.id, page, PAGE_SIZE, { signal }), keepPreviousPage: true });
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const loading = query.isFetching;
  const reload = () => invalidateSpace(mediaKey);

  const upload = async (file: File) => {
    const broken = checkMedia(file);
    if (broken) {
      feedback.error(t(broken, { name: file.name, types: MEDIA_EXTENSIONS.join(", "), megabytes: KNOWLEDGE_LIMITS.mediaMaxBytes / 1024 / 1024 }));
      return;
    }
    setUploading((count) => count + 1);
    try {
      const result = await knowledgeEndpoints.uploadMedia(base.id, file, file.name);
      if (!result.ok) {
        // The server's message, verbatim (e.g. content that does not match its extension).
        if (result.error.kind === "http" && !handledByRequestLayer(result.error))
          feedback.error(t("knowledge.media.uploadFailed", { name: file.name, reason: result.error.message }));
        return;
      }
      feedback.success(t("knowledge.media.uploaded", { name: result.data.name }));
      setPage(1);
      await reload();
    } finally {
      setUploading((count) => count - 1);
    }
  };

  const remove = async (media: KnowledgeMedia) => {
    const result = await knowledgeEndpoints.removeMedia(media.id);
    if (!result.ok) return;
    feedback.success(t("knowledge.media.deleted", { name: media.name }));
    const next = items.length === 1 && page > 1 ? page - 1 : page;
    setPage(next);
    await reload();
  };

  const download = async (media: KnowledgeMedia) => {
    const result = await knowledgeEndpoints.mediaContent(media.id);
    if (result.ok) saveBlob(result.data as Blob, media.name);
  };

  const uploadButton = (testId: string) => (
    <Upload
      accept={ACCEPT}
      multiple
      showUploadList={false}
      beforeUpload={(file) => {
        void upload(file);
        return Upload.LIST_IGNORE;
      }}
    >
      <Button type="primary" icon={<UploadOutlined />} loading={uploading > 0} data-testid={testId}>
        {t("knowledge.media.upload")}
      </Button>
    </Upload>
  );

  return (
    <div className="pl-card pl-kb-panel" data-testid="knowledge-media">
      <Flex justify="space-between" align="center" gap={12} wrap className="pl-kb-panel__head">
        <div>
          <Typography.Title level={5} className="pl-kb-panel__title">
            {t("knowledge.media.title")}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t("knowledge.media.hint", { types: MEDIA_EXTENSIONS.join(", "), megabytes: KNOWLEDGE_LIMITS.mediaMaxBytes / 1024 / 1024 })}
          </Typography.Text>
        </div>
        <Flex gap={8}>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()} data-testid="media-refresh">
            {t("common.refresh")}
          </Button>
          {uploadButton("media-upload")}
        </Flex>
      </Flex>
      {loading && items.length === 0 ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : items.length === 0 ? (
        <EmptyState
          compact
          icon={<PictureOutlined className="pl-empty__glyph" />}
          title={t("knowledge.media.emptyTitle")}
          description={t("knowledge.media.emptyDescription")}
          data-testid="media-empty"
        />
      ) : (
        <>
          <Row gutter={[16, 16]} data-testid="media-list">
            {items.map((media) => (
              <Col key={media.id} xs={24} sm={12} lg={8} xxl={6}>
                <MediaCard
                  media={media}
                  onPreview={() => setPreviewing(media)}
                  onRename={() => setRenaming(media)}
                  onDownload={() => void download(media)}
                  onDelete={() => remove(media)}
                />
              </Col>
            ))}
          </Row>
          {total > PAGE_SIZE ? (
            <Flex justify="flex-end" className="pl-kb-actions">
              <Pagination
                current={page}
                pageSize={PAGE_SIZE}
                total={total}
                showSizeChanger={false}
                onChange={(next) => {
                  setPage(next);
                }}
              />
            </Flex>
          ) : null}
        </>
      )}
      <RenameModal
        item={renaming}
        title={t("knowledge.media.renameTitle")}
        label={t("knowledge.media.name")}
        maxLength={KNOWLEDGE_LIMITS.mediaNameMax}
        rule={checkRule(checkMediaName, { max: KNOWLEDGE_LIMITS.mediaNameMax })}
        save={knowledgeEndpoints.renameMedia}
        inputTestId="media-rename-input"
        saveTestId="media-rename-save"
        onClose={() => setRenaming(undefined)}
        onRenamed={(media) => {
          setRenaming(undefined);
          setSpaceData<NonNullable<typeof query.data>>(pageKey, (current) =>
            current ? { ...current, items: current.items.map((item) => (item.id === media.id ? media : item)) } : current,
          );
          feedback.success(t("knowledge.media.renamed", { name: media.name }));
        }}
      />
      <MediaPreviewModal media={previewing} onClose={() => setPreviewing(undefined)} />
    </div>
  );
}

function MediaCard({
  media,
  onPreview,
  onRename,
  onDownload,
  onDelete,
}: {
  media: KnowledgeMedia;
  onPreview: () => void;
  onRename: () => void;
  onDownload: () => void;
  onDelete: () => Promise<void>;
}) {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const thumbnail = useMediaObjectUrl(media, media.kind === "image");
  return (
    <Card
      className="pl-kb-media"
      data-testid={`media-card-${media.name}`}
      cover={
        <button type="button" className="pl-kb-media__cover" onClick={onPreview} aria-label={t("knowledge.media.preview")} data-testid="media-preview">
          {thumbnail ? (
            <img src={thumbnail} alt={media.name} data-testid="media-thumbnail" />
          ) : (
            <span className="pl-kb-media__icon">{KIND_ICONS[media.kind]}</span>
          )}
        </button>
      }
      actions={[
        <Tooltip key="preview" title={t("knowledge.media.preview")}>
          <Button type="text" icon={<EyeOutlined />} onClick={onPreview} aria-label={t("knowledge.media.preview")} />
        </Tooltip>,
        <Tooltip key="rename" title={t("knowledge.files.rename")}>
          <Button type="text" icon={<EditOutlined />} onClick={onRename} aria-label={t("knowledge.files.rename")} data-testid="media-rename" />
        </Tooltip>,
        <Tooltip key="download" title={t("knowledge.media.download")}>
          <Button type="text" icon={<DownloadOutlined />} onClick={onDownload} aria-label={t("knowledge.media.download")} data-testid="media-download" />
        </Tooltip>,
        <Popconfirm
          key="delete"
          title={t("knowledge.media.deleteTitle")}
          description={t("knowledge.media.deleteDescription", { name: media.name })}
          okText={t("common.delete")}
          cancelText={t("common.cancel")}
          okButtonProps={{ danger: true, "data-testid": "media-delete-confirm" }}
          onConfirm={onDelete}
        >
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid="media-delete" />
        </Popconfirm>,
      ]}
    >
      <Typography.Text strong ellipsis={{ tooltip: media.name }} className="pl-kb-media__name" data-testid="media-name">
        {media.name}
      </Typography.Text>
      <Flex gap={6} wrap align="center" className="pl-kb-media__facts">
        <Tag>{t(`knowledge.media.kinds.${media.kind}`)}</Tag>
        <Typography.Text type="secondary">
          {t("knowledge.import.sizeKb", { size: Math.max(1, Math.ceil(media.sizeBytes / 1024)).toLocaleString(language) })}
        </Typography.Text>
        <Typography.Text type="secondary">{formatDateTime(media.updatedAt, language)}</Typography.Text>
      </Flex>
      <Typography.Text type="secondary" copyable={{ text: media.id, tooltips: [t("knowledge.media.copyId"), t("common.copied")] }} className="pl-kb-media__id">
        {media.id}
      </Typography.Text>
    </Card>
  );
}

function MediaPreviewModal({ media, onClose }: { media?: KnowledgeMedia; onClose: () => void }) {
  const { t } = useTranslation();
  const url = useMediaObjectUrl(media, Boolean(media));
  return (
    <Modal
      open={Boolean(media)}
      title={media?.name}
      footer={null}
      onCancel={onClose}
      width={media?.kind === "document" ? 900 : 720}
      destroyOnHidden
      data-testid="media-preview-modal"
    >
      {!url ? (
        <Skeleton.Image active />
      ) : media?.kind === "image" ? (
        <Image src={url} alt={media.name} className="pl-kb-media__full" preview={false} data-testid="media-preview-image" />
      ) : media?.kind === "video" ? (
        <video src={url} controls className="pl-kb-media__full" data-testid="media-preview-video" />
      ) : (
        <iframe src={url} title={media?.name ?? t("knowledge.media.preview")} className="pl-kb-media__frame" />
      )}
    </Modal>
  );
}
