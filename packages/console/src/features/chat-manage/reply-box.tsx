import { PictureOutlined, SendOutlined } from "@ant-design/icons";
import { Button, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AttachButton, PendingFileChips } from "../../components/chat/attachments";
import { type AttachedFile, canSend, IMAGE_ACCEPT, uploadedFiles } from "../../components/chat/pending-files";
import { type UploadFile, usePendingFiles } from "../../components/chat/use-pending-files";

/** The longest operator message the server takes. */
export const REPLY_MAX = 4000;

export interface ReplyBoxProps {
  /** Sends the text with the attached images; answers whether it went out (the box is cleared then). */
  onSend: (content: string, files: AttachedFile[]) => Promise<boolean>;
  /** Uploads an image for the reply; without it, the box has no attach button. */
  onUpload?: UploadFile;
  /** The AI runs the session: sending takes it over (said under the box). */
  takesOver?: boolean;
  disabled?: boolean;
}

const noUpload: UploadFile = async () => ({ ok: false, error: { message: "" } });

/** An operator's reply: Enter with Ctrl/⌘ (or the button) sends. */
export function ReplyBox({ onSend, onUpload, takesOver = false, disabled = false }: ReplyBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const files = usePendingFiles(onUpload ?? noUpload);
  const send = async () => {
    const content = text.trim();
    if (!canSend(content, files.items) || sending) return;
    setSending(true);
    try {
      if (await onSend(content, uploadedFiles(files.items))) {
        setText("");
        files.clear();
      }
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="pl-inbox__reply" data-testid="reply-box">
      <PendingFileChips items={files.items} onRemove={files.remove} />
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
        maxLength={REPLY_MAX}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t("chatManage.reply.placeholder")}
        disabled={disabled}
        aria-label={t("chatManage.reply.placeholder")}
        data-testid="reply-input"
      />
      <div className="pl-inbox__reply-bar">
        <Typography.Text type="secondary">
          {onUpload ? (
            <AttachButton
              onFiles={files.add}
              accept={IMAGE_ACCEPT}
              disabled={disabled}
              label={t("chatManage.reply.attachImage")}
              icon={<PictureOutlined />}
              inputTestId="reply-attach-input"
              buttonTestId="reply-attach"
            />
          ) : null}{" "}
          {takesOver ? t("chatManage.reply.takesOver") : t("chatManage.reply.hint")}
        </Typography.Text>
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={sending}
          disabled={disabled || !canSend(text, files.items)}
          onClick={() => void send()}
          data-testid="reply-send"
        >
          {t("chatManage.reply.send")}
        </Button>
      </div>
    </div>
  );
}
