import { useEffect, useRef, useState } from "preact/hooks";
import { ACCEPT, fileUrl, MAX_FILES } from "../core/attachments";
import { type ChatStore, explainError, MAX_CONTENT } from "../core/chat-store";
import { stringsFor } from "../core/i18n";
import type { ChatFile, LoaderOptions } from "../core/protocol";
import { bracketQuestions, formatReply, isSafeUrl } from "../core/reply";
import { WidgetHttpError } from "../core/transport";
import { Microphone } from "./microphone";
import { renderNodes } from "./reply-view";
import type { Voice } from "./voice";

/** Props of {@link Panel}; the chat entry renders it again after each change of the store. */
export interface PanelProps {
  options: LoaderOptions;
  store: ChatStore;
  voice?: Voice;
  onClose(): void;
}

/** A message's files: images inline (a click opens the full image), documents as link chips. */
const Files = ({ api, list }: { api: string; list: ChatFile[] | undefined }) =>
  list?.length ? (
    <div class="fa">
      {list.map((file) => {
        const href = fileUrl(api, file.url);
        return (
          <a key={file.id} href={href} target="_blank" rel="noopener noreferrer" class={file.kind === "image" ? undefined : "fd"}>
            {file.kind === "image" ? <img src={href} alt={file.name} /> : `📄 ${file.name}`}
          </a>
        );
      })}
    </div>
  ) : null;

/** The chat panel: header, log, guiding questions, input with send and stop. A view of the store's state. */
export function Panel({ options, store, voice, onClose }: PanelProps) {
  const { open, language, config, messages, input, files, busy, notice, session, asking, transferOff } = store.getState();
  const t = stringsFor(language);
  // The upload chunk, imported on the first file picked or dropped.
  const [uploads, setUploads] = useState<typeof import("./attach")>();
  const [dragging, setDragging] = useState(false);
  const attach = (list: FileList | null | undefined) => {
    if (!list?.length) return;
    const chosen = [...list];
    import("./attach").then(
      (chunk) => {
        setUploads(() => chunk);
        chunk.addFiles({ store, api: options.api, clientId: options.clientId }, chosen);
      },
      () => store.setNotice(t.network),
    );
  };
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages]);
  const explain = (error: unknown) => explainError(error, t, navigator.onLine);
  const ask = (text: string) => store.ask(text);

  const failed = config && !config.ok ? config : undefined;
  const loaded = config?.ok ? config.config : undefined;
  const intro = bracketQuestions(loaded?.openingIntroduction ?? "");
  const questions = loaded?.guidingQuestions?.length ? loaded.guidingQuestions : intro.questions;
  const welcome = [loaded?.welcome, intro.text].filter(Boolean).join("\n\n");
  const full = options.mode !== "bubble";
  const left = (options.position ?? loaded?.position) === "left";
  const tooLong = input.trim().length > MAX_CONTENT;
  const uploading = files.some((chip) => !chip.file && !chip.error);
  const attached = files.some((chip) => chip.file);
  const manual = !!session?.manual;
  const speaks = loaded?.voice && voice;
  // Answers that streamed in here (not history) are read once each when auto is on.
  const heard = useRef(new Set<string>());
  useEffect(() => {
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      if (message.streaming) heard.current.add(message.id);
      else if (heard.current.delete(message.id) && speaks && voice.auto) voice.play(message.id, message.content);
    }
  }, [messages]);

  return (
    <div
      class={`p${full ? " f" : ""}${left ? " l" : ""}${dragging ? " d" : ""}`}
      role="dialog"
      aria-label={loaded?.name || "Chat"}
      hidden={!open}
      data-parley-drop=""
      onDragOver={(event) => {
        if (failed || !event.dataTransfer?.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false);
        if (failed || !event.dataTransfer?.files.length) return;
        event.preventDefault();
        attach(event.dataTransfer.files);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !full) {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div class="h">
        {loaded?.avatarUrl && isSafeUrl(loaded.avatarUrl) && <img src={loaded.avatarUrl} alt="" />}
        <h2>{loaded?.name || loaded?.appName || ""}</h2>
        {speaks && (
          <button type="button" class="v" aria-pressed={voice.auto ? "true" : "false"} aria-label={t.autoSpeak} title={t.autoSpeak} onClick={voice.toggle}>
            {voice.auto ? "🔊" : "🔈"}
          </button>
        )}
        {!full && (
          <button type="button" class="x" aria-label={t.close} onClick={onClose}>
            ×
          </button>
        )}
      </div>
      <div class="g" role="log" aria-live="polite" aria-label={t.log} ref={logRef}>
        {failed ? (
          <div class="m e" role="alert">
            {failed.status === 0 ? (navigator.onLine ? t.network : t.offline) : explain(new WidgetHttpError(failed.status, failed.message))}
            {failed.status === 0 && (
              <p>
                <button type="button" class="s" onClick={() => store.retryConfig()}>
                  {t.retry}
                </button>
              </p>
            )}
          </div>
        ) : (
          welcome && <div class="m">{renderNodes(formatReply(welcome))}</div>
        )}
        {loaded && questions.length > 0 && messages.length === 0 && (
          <ul class="q" aria-label={t.questions}>
            {questions.map((question) => (
              <li key={question}>
                <button type="button" onClick={() => ask(question)}>
                  {question}
                </button>
              </li>
            ))}
          </ul>
        )}
        {messages.map((message) =>
          message.role === "operator" ? (
            <div key={message.id} class="m r">
              <b class="w">{message.name || t.operator}</b>
              {renderNodes(formatReply(message.content))}
              <Files api={options.api} list={message.attachments} />
            </div>
          ) : message.role === "note" ? (
            <p key={message.id} class="z">
              {message.content}
            </p>
          ) : message.role === "user" ? (
            <div key={message.id} class="m u">
              <span class="t">{t.you}: </span>
              {message.content}
              <Files api={options.api} list={message.attachments} />
            </div>
          ) : (
            <div key={message.id} class={message.role === "error" ? "m e" : "m"} aria-busy={message.streaming ? "true" : undefined}>
              {message.tables?.map((table, index) => (
                <div class="dt" key={index}>
                  <table>
                    <thead>
                      <tr>
                        {table.columns.map((column) => (
                          <th key={column}>{column}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {table.rows.map((row, rowIndex) => (
                        <tr key={rowIndex}>
                          {row.map((cell, cellIndex) => (
                            <td key={cellIndex}>{cell === null ? "" : String(cell)}</td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {table.truncated && <small>{t.moreRows}</small>}
                </div>
              ))}
              {message.role === "error" ? message.content : renderNodes(formatReply(message.content))}
              <Files api={options.api} list={message.attachments} />
              {message.confirmations?.map((item) => (
                <div class="dw" key={item.id}>
                  <p>{t.writeConfirm.replace("{db}", item.databaseName)}</p>
                  <pre>{item.sql}</pre>
                  {item.state === "done" || item.state === "failed" ? (
                    <p role="status">{item.note}</p>
                  ) : (
                    <button type="button" disabled={item.state === "running"} onClick={() => void store.confirmWrite(message.id, item.id)}>
                      {t.writeRun}
                    </button>
                  )}
                </div>
              ))}
              {speaks && message.role === "assistant" && !message.streaming && message.content && (
                <button
                  type="button"
                  class="vp"
                  aria-pressed={voice.playing === message.id ? "true" : "false"}
                  onClick={() => (voice.playing === message.id ? voice.stop() : voice.play(message.id, message.content))}
                >
                  {voice.playing === message.id ? `■ ${t.stop}` : `▶ ${t.speak}`}
                </button>
              )}
              {message.sources && (
                <ul class="c" aria-label={t.sources}>
                  {message.sources.map((source) => (
                    <li key={source}>{source}</li>
                  ))}
                </ul>
              )}
            </div>
          ),
        )}
      </div>
      {notice && (
        <p class="n" role="status">
          {notice}
        </p>
      )}
      {tooLong && (
        <p class="n" role="alert" id="parley-too-long">
          {t.tooLong} {input.trim().length}/{MAX_CONTENT}
        </p>
      )}
      {loaded?.manualTransfer && !manual && !transferOff && (
        <button type="button" class="y" disabled={asking || busy} onClick={() => void store.handover()}>
          {t.talk}
        </button>
      )}
      {uploads && <uploads.Chips store={store} />}
      <form
        class="i"
        onSubmit={(event) => {
          event.preventDefault();
          ask(input);
        }}
      >
        <textarea
          ref={inputRef}
          rows={1}
          value={input}
          placeholder={t.placeholder}
          aria-label={t.placeholder}
          aria-invalid={tooLong ? "true" : undefined}
          aria-describedby={tooLong ? "parley-too-long" : undefined}
          disabled={!!failed}
          onInput={(event) => store.setInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              ask(input);
            }
          }}
        />
        <input
          type="file"
          hidden
          multiple
          accept={ACCEPT}
          data-parley-attach=""
          ref={fileRef}
          onChange={(event) => {
            attach(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        <button
          type="button"
          class="ib"
          aria-label={t.attach}
          title={t.attach}
          disabled={!!failed || files.length >= MAX_FILES}
          onClick={() => fileRef.current?.click()}
        >
          📎
        </button>
        {loaded?.speechInput && !failed && <Microphone store={store} strings={t} disabled={busy || asking} />}
        {busy ? (
          <button type="button" class="s" onClick={() => store.stop()}>
            {t.stop}
          </button>
        ) : (
          <button type="submit" class="s" disabled={!!failed || (!input.trim() && !attached) || tooLong || asking || uploading}>
            {t.send}
          </button>
        )}
      </form>
      {loaded?.slogan && <div class="o">{loaded.slogan}</div>}
    </div>
  );
}
