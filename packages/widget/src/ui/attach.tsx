/**
 * The upload chunk (issue 24), imported on the first file picked or dropped: checks the files,
 * uploads each at once with its progress, and shows them as chips above the input (name, size,
 * progress or the refusal, remove). The chips live in the store's `files`; send takes them.
 */
import { MAX_FILES } from "../core/attachments";
import type { ChatStore, PendingFile } from "../core/chat-store";
import { stringsFor } from "../core/i18n";
import { uploadStringsFor } from "../core/i18n-uploads";
import { fileProblem, formatSize, readUpload } from "../core/uploads";

/** Where uploads go: `${api}/api/v1/widget/${clientId}/sessions/{sessionId}/files`. */
export interface AttachContext {
  store: ChatStore;
  api: string;
  clientId: string;
}

/** The chips' stylesheet, adopted into the panel's shadow root when they first show. */
const CHIPS_CSS = `.fc{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:8px 10px 0}.fc li{display:flex;align-items:center;gap:4px;max-width:100%;padding:2px 4px 2px 8px;border:1px solid #d1d5db;border-radius:12px;font-size:12px}.fc li.e{border-color:#dc2626;color:#991b1b}.fc .fn{flex-shrink:0;max-width:140px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.fc small{min-width:0;overflow-wrap:anywhere;opacity:.75}.fc button{background:none;border:0;cursor:pointer;font:inherit;padding:0 4px}`;
let sheet: CSSStyleSheet | undefined;
const adopt = (element: Element | null) => {
  const root = element?.getRootNode() as ShadowRoot | undefined;
  if (!root?.adoptedStyleSheets) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CHIPS_CSS);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
};

// Uploads under way, by chip key: removing a chip stops its upload.
const running = new Map<string, XMLHttpRequest>();
let counter = 0;

const patch = (store: ChatStore, key: string, change: Partial<PendingFile>) =>
  store.setFiles(store.getState().files.map((chip) => (chip.key === key ? { ...chip, ...change } : chip)));

/** Adds chips for `list` (up to {@link MAX_FILES} in all) and uploads those that pass the checks. */
export function addFiles(context: AttachContext, list: File[]): void {
  const { store } = context;
  const { files, language } = store.getState();
  const strings = { ...stringsFor(language), ...uploadStringsFor(language) };
  const taken = list.slice(0, Math.max(0, MAX_FILES - files.length));
  if (taken.length < list.length) store.setNotice(strings.tooManyFiles);
  const added = taken.map((file): PendingFile => {
    const problem = fileProblem(file.name, file.size);
    return {
      key: `a${++counter}`,
      name: file.name,
      size: file.size,
      progress: 0,
      ...(problem ? { error: problem === "type" ? strings.fileType : strings.fileSize } : {}),
    };
  });
  store.setFiles([...files, ...added]);
  added.forEach((chip, index) => chip.error || void upload(context, chip.key, taken[index]!, strings));
}

async function upload({ store, api, clientId }: AttachContext, key: string, file: File, strings: { network: string; failed: string }): Promise<void> {
  let session: Awaited<ReturnType<ChatStore["session"]>>;
  try {
    session = await store.session();
  } catch {
    patch(store, key, { error: strings.network });
    return;
  }
  const request = new XMLHttpRequest();
  running.set(key, request);
  request.open("POST", `${api}/api/v1/widget/${encodeURIComponent(clientId)}/sessions/${encodeURIComponent(session.sessionId)}/files`);
  request.setRequestHeader("Authorization", `Bearer ${session.visitorToken}`);
  request.setRequestHeader("Accept-Language", store.getState().language);
  request.upload.onprogress = (event) => event.lengthComputable && patch(store, key, { progress: event.loaded / event.total });
  request.onloadend = () => {
    if (running.get(key) !== request) return;
    running.delete(key);
    const answer = readUpload(request.status, request.responseText);
    patch(store, key, "file" in answer ? { file: answer.file, progress: 1 } : { error: answer.message || (request.status ? strings.failed : strings.network) });
  };
  const form = new FormData();
  form.append("file", file, file.name);
  request.send(form);
}

/** Removes a chip, stopping its upload. */
function remove(store: ChatStore, key: string) {
  const request = running.get(key);
  running.delete(key);
  request?.abort();
  store.setFiles(store.getState().files.filter((chip) => chip.key !== key));
}

/** The chips of the files chosen for the next message. */
export function Chips({ store }: { store: ChatStore }) {
  const { files, language } = store.getState();
  const strings = { ...stringsFor(language), ...uploadStringsFor(language) };
  if (!files.length) return null;
  return (
    <ul class="fc" ref={adopt} aria-label={strings.attach} aria-live="polite">
      {files.map((chip) => (
        <li key={chip.key} class={chip.error ? "e" : undefined} aria-busy={chip.file || chip.error ? undefined : "true"}>
          <span class="fn">{chip.name}</span>
          <small>
            {formatSize(chip.size)}
            {chip.error ? ` · ${chip.error}` : chip.file ? "" : ` · ${strings.uploading} ${Math.round(chip.progress * 100)}%`}
          </small>
          <button type="button" aria-label={`${strings.remove} ${chip.name}`} title={strings.remove} onClick={() => remove(store, chip.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
