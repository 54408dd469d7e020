import { ArrowUpOutlined, ClearOutlined, PauseCircleOutlined } from "@ant-design/icons";
import { Button, Flex, Input, Popconfirm, Typography } from "antd";
import { type DragEvent, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ChatTurn } from "./chat-state";
import { AppAvatar } from "../app-avatar";
import { AttachButton, PendingFileChips } from "./attachments";
import "./chat.css";
import { GuidingQuestions } from "./guiding-questions";
import { MessageBubble } from "./message-bubble";
import { type AttachedFile, CHAT_FILE_ACCEPT, canSend, uploadedFiles } from "./pending-files";
import { ReplyContent } from "./reply-content";
import type { PendingFilesController } from "./use-pending-files";

/** Props of {@link ChatPanel}. */
export interface ChatPanelProps {
  appName: string;
  appAvatarUrl?: string;
  /** The opening text (Markdown, without its guiding questions). */
  openingText?: string;
  guidingQuestions?: string[];
  turns: ChatTurn[];
  streaming: boolean;
  /** Sends the text with the uploaded files (the text may be empty when files go). */
  onSend: (text: string, files: AttachedFile[]) => void;
  onStop: () => void;
  /** Delete context; leave out to hide the button. */
  onClearContext?: () => void;
  /** Shown above the messages (title, model switcher …). */
  header?: ReactNode;
  /** Next to the input's buttons (a model switcher, say). */
  toolbar?: ReactNode;
  /** Next to the send button, given a way to add text to the input (the microphone). */
  composerTools?: (insert: (text: string) => void) => ReactNode;
  /** The bottom slogan. */
  footer?: ReactNode;
  disabled?: boolean;
  /** Prefix of the input's test ids: `preview` → preview-input, preview-send, preview-stop. */
  testIdPrefix?: string;
  className?: string;
  /** Buttons under a completed answer (e.g. read it aloud). */
  answerActions?: (turn: ChatTurn) => ReactNode;
  /**
   * Files for the next message (see usePendingFiles): adds a paperclip, drop of files on the chat
   * and paste of an image; leave out for a chat without files.
   */
  files?: PendingFilesController;
}

/** The files a drop or paste carries. */
const filesOf = (data: DataTransfer | null): File[] => Array.from(data?.files ?? []);

/**
 * A chat with an app: opening text and guiding questions, the messages (answers stream in),
 * an input that sends on Enter (Shift+Enter for a new line), Stop while answering, and
 * delete context. Presentational: the caller owns the conversation (see useChat).
 */
export function ChatPanel({
  appName,
  appAvatarUrl,
  openingText,
  guidingQuestions = [],
  turns,
  streaming,
  onSend,
  onStop,
  onClearContext,
  header,
  toolbar,
  composerTools,
  footer,
  disabled = false,
  testIdPrefix = "chat",
  className,
  answerActions,
  files,
}: ChatPanelProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const lastLength = turns[turns.length - 1]?.content.length ?? 0;

  // Follow the answer as it streams in.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [turns.length, lastLength]);

  const [dragging, setDragging] = useState(false);
  const pending = files?.items ?? [];
  const ready = canSend(draft, pending);

  const submit = (text: string) => {
    if (!canSend(text, pending) || streaming || disabled) return;
    onSend(text, uploadedFiles(pending));
    setDraft("");
    files?.clear();
  };

  const dragHandlers = files
    ? {
        onDragOver: (event: DragEvent) => {
          if (!Array.from(event.dataTransfer.types).includes("Files") || disabled) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
          setDragging(true);
        },
        onDragLeave: (event: DragEvent) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop: (event: DragEvent) => {
          event.preventDefault();
          setDragging(false);
          if (!disabled) files.add(filesOf(event.dataTransfer));
        },
      }
    : {};

  return (
    <div className={["pl-chat", className].filter(Boolean).join(" ")} data-testid={`${testIdPrefix}-panel`}>
      {header ? <div className="pl-chat__header">{header}</div> : null}
      <div className="pl-chat__drop" data-testid={files ? "chat-drop-zone" : undefined} {...dragHandlers}>
        {dragging ? <div className="pl-chat__drop-hint">{t("chat.files.dropHint")}</div> : null}
        <div className="pl-chat__messages" ref={list} data-testid={`${testIdPrefix}-messages`}>
          {openingText || guidingQuestions.length > 0 ? (
            <Flex className="pl-msg pl-msg--assistant pl-chat__opening" gap={10} data-testid={`${testIdPrefix}-opening`}>
              <AppAvatar name={appName} src={appAvatarUrl} size={32} />
              <div className="pl-msg__body">
                {openingText ? (
                  <div className="pl-msg__bubble pl-msg__bubble--assistant">
                    <ReplyContent text={openingText} />
                  </div>
                ) : null}
                <GuidingQuestions questions={guidingQuestions} onPick={submit} disabled={streaming || disabled} />
              </div>
            </Flex>
          ) : null}
          {turns.length === 0 && !openingText && guidingQuestions.length === 0 ? (
            <Typography.Text type="secondary" className="pl-chat__empty">
              {t("chat.empty", { name: appName })}
            </Typography.Text>
          ) : null}
          {turns.map((turn) => (
            <MessageBubble key={turn.id} turn={turn} appName={appName} appAvatarUrl={appAvatarUrl} actions={answerActions?.(turn)} />
          ))}
        </div>
        <div className="pl-chat__composer">
          {files ? <PendingFileChips items={pending} onRemove={files.remove} /> : null}
          <Input.TextArea
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                submit(draft);
              }
            }}
            onPaste={
              files
                ? (event) => {
                    const images = filesOf(event.clipboardData).filter((file) => file.type.startsWith("image/"));
                    if (images.length === 0) return;
                    event.preventDefault();
                    files.add(images);
                  }
                : undefined
            }
            autoSize={{ minRows: 1, maxRows: 6 }}
            placeholder={t("chat.placeholder")}
            disabled={disabled}
            variant="borderless"
            className="pl-chat__input"
            aria-label={t("chat.placeholder")}
            data-testid={`${testIdPrefix}-input`}
          />
          <Flex justify="space-between" align="center" gap={8}>
            <Flex gap={4} align="center">
              {onClearContext ? (
                // No tooltip on this button: it already says "Delete context", and a tooltip opened
                // above it lay over the confirmation's Cancel button. The confirmation opens from the
                // button's left edge, inside the panel.
                <Popconfirm
                  title={t("chat.clearContextTitle")}
                  description={t("chat.clearContextDescription")}
                  okText={t("chat.clearContext")}
                  cancelText={t("common.cancel")}
                  placement="topLeft"
                  onConfirm={onClearContext}
                  disabled={streaming || turns.length === 0}
                  okButtonProps={{ "data-testid": `${testIdPrefix}-clear-context-confirm` }}
                  cancelButtonProps={{ "data-testid": `${testIdPrefix}-clear-context-cancel` }}
                >
                  <Button
                    type="text"
                    size="small"
                    icon={<ClearOutlined />}
                    disabled={streaming || turns.length === 0}
                    data-testid={`${testIdPrefix}-clear-context`}
                  >
                    {t("chat.clearContext")}
                  </Button>
                </Popconfirm>
              ) : null}
              {toolbar}
            </Flex>
            <Flex gap={4} align="center">
              {files ? <AttachButton onFiles={files.add} accept={CHAT_FILE_ACCEPT} disabled={disabled} /> : null}
              {composerTools?.((text) => setDraft((current) => (current.trim() ? `${current.trimEnd()} ${text}` : text)))}
              {streaming ? (
                <Button danger icon={<PauseCircleOutlined />} onClick={onStop} data-testid={`${testIdPrefix}-stop`}>
                  {t("chat.stop")}
                </Button>
              ) : (
                <Button
                  type="primary"
                  icon={<ArrowUpOutlined />}
                  onClick={() => submit(draft)}
                  disabled={disabled || !ready}
                  data-testid={`${testIdPrefix}-send`}
                >
                  {t("chat.send")}
                </Button>
              )}
            </Flex>
          </Flex>
        </div>
      </div>
      {footer ? <div className="pl-chat__footer">{footer}</div> : null}
    </div>
  );
}
