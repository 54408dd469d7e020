import { describe, expect, it } from "vitest";
import {
  addPending,
  type AttachedFile,
  canSend,
  formatFileSize,
  markFailed,
  markUploaded,
  MAX_FILES_PER_MESSAGE,
  removePending,
  uploadedFiles,
} from "./pending-files";

const picked = (count: number, from = 0) => Array.from({ length: count }, (_, index) => ({ key: `k${from + index}`, name: `f${from + index}.png`, size: 100 }));
const stored = (id: string): AttachedFile => ({
  id,
  name: `${id}.png`,
  kind: "image",
  mimeType: "image/png",
  sizeBytes: 120,
  url: `/api/v1/chat-files/${id}/content`,
});

describe("pending chat files", () => {
  it("takes at most 10 files per message and says how many were left out", () => {
    const first = addPending([], picked(7));
    expect(first.added).toHaveLength(7);
    expect(first.leftOut).toBe(0);
    const second = addPending(first.list, picked(5, 7));
    expect(second.list).toHaveLength(MAX_FILES_PER_MESSAGE);
    expect(second.added.map((item) => item.key)).toEqual(["k7", "k8", "k9"]);
    expect(second.leftOut).toBe(2);
    expect(addPending(second.list, picked(1, 20))).toMatchObject({ added: [], leftOut: 1 });
    // Removing one makes room again.
    expect(addPending(removePending(second.list, "k0"), picked(1, 20)).added).toHaveLength(1);
  });

  it("sends only uploaded files, in the order picked; a refusal stays on its chip with the server's message", () => {
    let list = addPending([], picked(3)).list;
    expect(canSend("", list)).toBe(false);
    list = markUploaded(list, "k2", stored("b"));
    list = markFailed(list, "k1", "Files of this type cannot be sent");
    // k0 is still uploading: nothing goes yet, even with text.
    expect(canSend("hello", list)).toBe(false);
    list = markUploaded(list, "k0", stored("a"));
    expect(uploadedFiles(list).map((file) => file.id)).toEqual(["a", "b"]);
    expect(list[1]).toMatchObject({ status: "error", error: "Files of this type cannot be sent" });
    expect(list[2]).toMatchObject({ status: "done", sizeBytes: 120 });
    // Files alone can be sent without text.
    expect(canSend("  ", list)).toBe(true);
  });

  it("forgets the answer of an upload whose chip was removed", () => {
    const list = removePending(addPending([], picked(2)).list, "k1");
    expect(markUploaded(list, "k1", stored("late"))).toEqual(list);
    expect(canSend("", removePending(list, "k0"))).toBe(false);
    expect(canSend("text only", [])).toBe(true);
  });

  it("formats sizes", () => {
    expect(formatFileSize(812)).toBe("812 B");
    expect(formatFileSize(14_540)).toBe("14.2 KB");
    expect(formatFileSize(5 * 1024 * 1024)).toBe("5.0 MB");
  });
});
