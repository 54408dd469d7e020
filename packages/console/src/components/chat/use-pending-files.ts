import { useCallback, useEffect, useRef, useState } from "react";
import { i18n } from "../../i18n";
import { feedback } from "../../lib/feedback";
import { type AttachedFile, addPending, markFailed, markUploaded, MAX_FILES_PER_MESSAGE, type PendingFile, removePending } from "./pending-files";

/** An upload as the request layer answers it. */
export type UploadFile = (file: File) => Promise<{ ok: true; data: AttachedFile } | { ok: false; error: { message: string } }>;

/** The files attached to the next message, as a composer uses them. */
export interface PendingFilesController {
  items: PendingFile[];
  /** Uploads each file at once (beyond {@link MAX_FILES_PER_MESSAGE} in all, the rest are left out with a warning). */
  add: (files: File[]) => void;
  remove: (key: string) => void;
  /** Empties the list (after sending). */
  clear: () => void;
}

let counter = 0;

/** The pending files of a composer: each uploads as soon as it is added; a refusal stays on its chip. */
export function usePendingFiles(upload: UploadFile): PendingFilesController {
  const [items, setItems] = useState<PendingFile[]>([]);
  const current = useRef<PendingFile[]>([]);
  const uploadRef = useRef(upload);
  uploadRef.current = upload;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const apply = useCallback((change: (list: PendingFile[]) => PendingFile[]) => {
    current.current = change(current.current);
    if (mounted.current) setItems(current.current);
  }, []);

  const add = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const byKey = new Map<string, File>();
      const picked = files.map((file) => {
        const key = `file-${Date.now().toString(36)}-${(counter += 1)}`;
        byKey.set(key, file);
        return { key, name: file.name || "file", size: file.size };
      });
      const result = addPending(current.current, picked);
      apply(() => result.list);
      if (result.leftOut > 0) feedback.warning(i18n.t("chat.files.tooMany", { max: MAX_FILES_PER_MESSAGE }));
      for (const item of result.added) {
        const file = byKey.get(item.key);
        if (!file) continue;
        void uploadRef.current(file).then((answer) => {
          apply((list) =>
            answer.ok ? markUploaded(list, item.key, answer.data) : markFailed(list, item.key, answer.error.message || i18n.t("chat.files.failed")),
          );
        });
      }
    },
    [apply],
  );

  const remove = useCallback((key: string) => apply((list) => removePending(list, key)), [apply]);
  const clear = useCallback(() => apply(() => []), [apply]);

  return { items, add, remove, clear };
}

/** Whether a picked file is an image (by its type, else its name): the server decides by its bytes. */
export function isImageFile(file: Pick<File, "type" | "name">): boolean {
  return file.type.startsWith("image/") || /\.(png|jpe?g)$/i.test(file.name);
}

/**
 * An upload that refuses images at once when the model that will answer reads none (the app
 * view's `imageModels`), saying so on the chip, instead of a refusal after Send.
 */
export function imageAware(upload: UploadFile, model: string | undefined, imageModels: readonly string[] | undefined): UploadFile {
  return (file) =>
    model && imageModels && !imageModels.includes(model) && isImageFile(file)
      ? Promise.resolve({ ok: false as const, error: { message: i18n.t("chat.files.noVision", { model }) } })
      : upload(file);
}
