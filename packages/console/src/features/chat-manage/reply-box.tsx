import { SendOutlined } from "@ant-design/icons";
import { Button, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** The longest operator message the server takes. */
export const REPLY_MAX = 4000;

export interface ReplyBoxProps {
  /** Sends the text; answers whether it went out (the box is cleared then). */
  onSend: (content: string) => Promise<boolean>;
  /** The AI runs the session: sending takes it over (said under the box). */
  takesOver?: boolean;
  disabled?: boolean;
}

/** An operator's reply: Enter with Ctrl/⌘ (or the button) sends. */
export function ReplyBox({ onSend, takesOver = false, disabled = false }: ReplyBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const send = async () => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    try {
      if (await onSend(content)) setText("");
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="pl-inbox__reply" data-testid="reply-box">
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
        <Typography.Text type="secondary">{takesOver ? t("chatManage.reply.takesOver") : t("chatManage.reply.hint")}</Typography.Text>
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={sending}
          disabled={disabled || !text.trim()}
          onClick={() => void send()}
          data-testid="reply-send"
        >
          {t("chatManage.reply.send")}
        </Button>
      </div>
    </div>
  );
}
