import {
  CloseOutlined,
  ExclamationCircleFilled,
  FileImageOutlined,
  FilePdfOutlined,
  FileTextOutlined,
  FileWordOutlined,
  LoadingOutlined,
  PaperClipOutlined,
} from "@ant-design/icons";
import { Button, Image, Tooltip, Typography } from "antd";
import { type ReactNode, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type AttachedFile, formatFileSize, type PendingFile } from "./pending-files";
import "./attachments.css";

function documentIcon(file: { name: string; mimeType?: string }): ReactNode {
  const name = file.name.toLowerCase();
  if (file.mimeType === "application/pdf" || name.endsWith(".pdf")) return <FilePdfOutlined />;
  if (name.endsWith(".docx") || file.mimeType?.includes("wordprocessingml")) return <FileWordOutlined />;
  if (/\.(png|jpe?g)$/.test(name) || file.mimeType?.startsWith("image/")) return <FileImageOutlined />;
  return <FileTextOutlined />;
}

/** The files of a sent message: images as thumbnails that open a preview, documents as chips that download. */
export function MessageAttachments({ files, align = "start" }: { files: readonly AttachedFile[]; align?: "start" | "end" }) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  const images = files.filter((file) => file.kind === "image");
  const documents = files.filter((file) => file.kind !== "image");
  return (
    <div className={`pl-attachments pl-attachments--${align}`} data-testid="message-attachments">
      {images.length > 0 ? (
        <Image.PreviewGroup>
          <div className="pl-attachments__images">
            {images.map((file) => (
              <Image key={file.id} src={file.url} alt={file.name} width={96} height={96} className="pl-attachments__thumb" data-testid="attachment-image" />
            ))}
          </div>
        </Image.PreviewGroup>
      ) : null}
      {documents.map((file) => (
        <a
          key={file.id}
          href={file.url}
          download={file.name}
          className="pl-file-chip pl-file-chip--link"
          title={t("chat.files.download", { name: file.name })}
          data-testid="attachment-document"
        >
          <span className="pl-file-chip__icon">{documentIcon(file)}</span>
          <span className="pl-file-chip__name">{file.name}</span>
          <span className="pl-file-chip__size">{formatFileSize(file.sizeBytes)}</span>
        </a>
      ))}
    </div>
  );
}

/** The files attached to the next message, above the input: name, size, a spinner while uploading, the refusal, and remove. */
export function PendingFileChips({ items, onRemove }: { items: readonly PendingFile[]; onRemove: (key: string) => void }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <div className="pl-file-chips" data-testid="pending-files">
      {items.map((item) => (
        <div
          key={item.key}
          className={`pl-file-chip${item.status === "error" ? " pl-file-chip--error" : ""}`}
          data-testid="pending-file"
          data-status={item.status}
        >
          <span className="pl-file-chip__icon">
            {item.status === "uploading" ? (
              <LoadingOutlined aria-label={t("chat.files.uploading")} />
            ) : item.status === "error" ? (
              <ExclamationCircleFilled />
            ) : (
              documentIcon({ name: item.name, ...(item.file ? { mimeType: item.file.mimeType } : {}) })
            )}
          </span>
          <span className="pl-file-chip__name" title={item.name}>
            {item.name}
          </span>
          <span className="pl-file-chip__size">{formatFileSize(item.sizeBytes)}</span>
          {item.error ? (
            <Typography.Text type="danger" className="pl-file-chip__error" data-testid="pending-file-error">
              {item.error}
            </Typography.Text>
          ) : null}
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            onClick={() => onRemove(item.key)}
            aria-label={t("chat.files.remove", { name: item.name })}
            className="pl-file-chip__remove"
            data-testid="pending-file-remove"
          />
        </div>
      ))}
    </div>
  );
}

/** Props of {@link AttachButton}. */
export interface AttachButtonProps {
  onFiles: (files: File[]) => void;
  accept: string;
  disabled?: boolean;
  multiple?: boolean;
  /** The button's label (tooltip and accessible name). */
  label?: string;
  icon?: ReactNode;
  /** Test id of the hidden file input. */
  inputTestId?: string;
  buttonTestId?: string;
}

/** A paperclip that opens the file picker (the input itself is hidden but reachable for tests). */
export function AttachButton({
  onFiles,
  accept,
  disabled = false,
  multiple = true,
  label,
  icon = <PaperClipOutlined />,
  inputTestId = "chat-attach-input",
  buttonTestId = "chat-attach",
}: AttachButtonProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const text = label ?? t("chat.files.attach");
  return (
    <>
      <Tooltip title={text}>
        <Button type="text" size="small" icon={icon} onClick={() => input.current?.click()} disabled={disabled} aria-label={text} data-testid={buttonTestId} />
      </Tooltip>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        style={{ display: "none" }}
        disabled={disabled}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file can be picked again after removing it.
          event.target.value = "";
          onFiles(files);
        }}
        data-testid={inputTestId}
      />
    </>
  );
}
