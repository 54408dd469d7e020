import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { newId } from "../../crypto";
import { imageTasks, usageRecords } from "../../db/schema/index";
import { type CreditHold, extendHold, releaseHold, settleHold, takeHold } from "../../billing/service/holds";
import { ServiceError } from "../../errors";
import type { MessageId } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { renderMessage } from "../../i18n/catalogue";
import type { Auth, Deps } from "../../kernel";
import { fileKey } from "../../kernel/files/port";
import { imageTaskCredits } from "../../models/pricing";
import { type ImageButton, ImageError, type ImageErrorKind, type ImageGenerator, type ImageSize, type ImageStep } from "../../platform/images/types";
import type { generateImageBody, imageModelSchema, imageTaskSchema, operateImageBody } from "../schemas";

type Row = typeof imageTasks.$inferSelect;
type TaskView = z.infer<typeof imageTaskSchema>;
type ImageModelView = z.infer<typeof imageModelSchema>;

/** What the task services need of the kernel. */
export type ImageDeps = Pick<Deps, "config" | "db" | "files" | "logger" | "mail" | "models" | "now" | "sms">;

/** A stored result: its key in the files store. */
interface StoredResult {
  key: string;
  contentType: string;
  sizeBytes: number;
}

/** Rows per page when the caller does not say, and the most one page holds. */
export const IMAGE_PAGE_SIZE = 20;
export const IMAGE_PAGE_SIZE_MAX = 50;

/** The §8 status and message of each way a provider call fails. */
const FAILURES: Record<ImageErrorKind, { code: number; messageId: MessageId }> = {
  rejected: { code: 410, messageId: "image_rejected" },
  unavailable: { code: 503, messageId: "image_unavailable" },
  failed: { code: 561, messageId: "image_failed" },
  unknown: { code: 599, messageId: "image_unknown" },
};
const MESSAGE_OF_CODE = new Map(Object.values(FAILURES).map((entry) => [entry.code, entry.messageId]));

const parse = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const notFound = () => new ServiceError("image_task_not_found", "image_task_not_found");

/** The images a model draws in one task at most. */
const maxCountOf = (generator: ImageGenerator) => generator.fixedCount ?? 4;

/** Buttons the console shows for a finished task (U1…V4), from what its provider offers. */
function actionsOf(row: Row, generator: ImageGenerator | undefined): string[] {
  if (row.status !== "succeeded" || !generator) return [];
  if (generator.format === "midjourney") {
    return parse<ImageButton[]>(row.buttons, [])
      .map((button) => button.label)
      .filter((label) => /^[UV][1-4]$/.test(label));
  }
  const results = parse<StoredResult[]>(row.results, []);
  return generator.operations.includes("variation") ? results.map((_, index) => `V${index + 1}`) : [];
}

/** A task as its owner sees it; the failure's message in the reader's language. */
export function taskView(deps: Pick<Deps, "models">, row: Row, language: Language): TaskView {
  const options = parse<{ size?: string; count?: number }>(row.options, {});
  const results = parse<StoredResult[]>(row.results, []);
  const messageId = row.errorCode !== null ? (MESSAGE_OF_CODE.get(row.errorCode) ?? "image_unknown") : undefined;
  return {
    id: row.id,
    model: row.model,
    prompt: row.prompt,
    revisedPrompt: row.revisedPrompt,
    action: row.action,
    parentTaskId: row.parentTaskId,
    parentIndex: row.parentIndex,
    size: options.size ?? "1024x1024",
    count: options.count ?? 1,
    status: row.status,
    progress: row.progress,
    images: results.map((result, index) => ({
      index: index + 1,
      url: `/api/v1/images/tasks/${row.id}/images/${index + 1}`,
      contentType: result.contentType,
      sizeBytes: result.sizeBytes,
    })),
    actions: actionsOf(row, deps.models.imageGenerator(row.model)?.generator),
    credits: row.status === "succeeded" ? row.creditsCharged : row.status === "failed" ? 0 : row.creditsHeld,
    error: row.errorCode !== null && messageId ? { code: row.errorCode, message: renderMessage(language, messageId) } : null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}

/** Image models of the enabled providers, with their sizes, operations and price. */
export async function listImageModels(deps: Pick<Deps, "models">): Promise<ImageModelView[]> {
  await deps.models.ready();
  return deps.models.imageModels().flatMap((model) => {
    const generator = deps.models.imageGenerator(model.id)?.generator;
    if (!generator) return [];
    return [
      {
        ...model,
        sizes: [...generator.sizes],
        maxCount: maxCountOf(generator),
        operations: [...generator.operations],
        creditsPerImage: imageTaskCredits(model.id, model.format, generator.sizes[0] ?? "1024x1024", 1),
      },
    ];
  });
}

/** The caller's task (461 for anyone else's or none). */
async function ownTask(deps: Pick<Deps, "db">, auth: Auth, taskId: string): Promise<Row> {
  const row = await deps.db
    .select()
    .from(imageTasks)
    .where(and(eq(imageTasks.id, taskId), eq(imageTasks.userId, auth.userId), eq(imageTasks.spaceId, auth.spaceId)))
    .get();
  if (!row) throw notFound();
  return row;
}

const isBusyConflict = (error: unknown) =>
  /image_tasks_one_running_idx|UNIQUE constraint failed: image_tasks\.user_id/.test(String((error as { cause?: unknown })?.cause ?? error) + String(error));

/**
 * Holds the task's credits and stores it queued; the worker picks it up. The partial unique
 * index keeps one unfinished task per user (511); credits short answer 406. Nothing is stored
 * and nothing held when either refuses.
 */
async function submitTask(
  deps: ImageDeps,
  auth: Auth,
  input: {
    model: string;
    format: "openai" | "midjourney";
    prompt: string;
    size: ImageSize;
    count: number;
    action: Row["action"];
    parentTaskId?: string;
    parentIndex?: number;
  },
  onQueued: (row: Row) => Promise<void>,
): Promise<Row> {
  const busy = await deps.db
    .select({ id: imageTasks.id })
    .from(imageTasks)
    .where(and(eq(imageTasks.userId, auth.userId), inArray(imageTasks.status, ["queued", "running"])))
    .get();
  if (busy) throw new ServiceError("image_task_busy", "image_task_busy");
  const credits = imageTaskCredits(input.model, input.format, input.size, input.count);
  const id = newId("img");
  let hold: CreditHold | undefined;
  try {
    hold = credits > 0 ? await takeHold(deps, { spaceId: auth.spaceId, amount: credits, memberUserId: auth.userId, reference: `image:${id}` }) : undefined;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "insufficient_credits") {
      throw new ServiceError("image_balance", "image_insufficient_balance", { credits });
    }
    throw error;
  }
  const now = deps.now().toISOString();
  const row: Row = {
    id,
    userId: auth.userId,
    spaceId: auth.spaceId,
    model: input.model,
    prompt: input.prompt,
    options: JSON.stringify({ size: input.size, count: input.count }),
    action: input.action,
    parentTaskId: input.parentTaskId ?? null,
    parentIndex: input.parentIndex ?? null,
    status: "queued",
    progress: 0,
    providerTaskId: null,
    results: "[]",
    buttons: "[]",
    revisedPrompt: null,
    creditsHeld: credits,
    creditsCharged: 0,
    hold: hold ? JSON.stringify(hold) : null,
    errorCode: null,
    errorDetail: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  try {
    await deps.db.insert(imageTasks).values(row);
  } catch (error) {
    if (hold) await releaseHold(deps, hold);
    if (isBusyConflict(error)) throw new ServiceError("image_task_busy", "image_task_busy");
    throw error;
  }
  await onQueued(row);
  return row;
}

function resolveGenerator(deps: Pick<Deps, "models">, model: string | undefined) {
  const served = deps.models.imageModels();
  if (served.length === 0) throw new ServiceError("image_unavailable", "image_no_model");
  const id = model ?? served[0]!.id;
  const resolved = deps.models.imageGenerator(id);
  if (!resolved) throw new ServiceError("validation", "image_model_unknown", { model: id }, { field: "model" });
  return resolved;
}

/** Starts a generation task (spec §7 Images: generate). */
export async function generateImage(deps: ImageDeps, auth: Auth, body: z.infer<typeof generateImageBody>, onQueued: (row: Row) => Promise<void>): Promise<Row> {
  await deps.models.ready();
  const { model, generator } = resolveGenerator(deps, body.model);
  if (!generator.sizes.includes(body.size)) {
    throw new ServiceError("validation", "image_size_unsupported", { model: model.id, sizes: generator.sizes.join(", ") }, { field: "size" });
  }
  const count = generator.fixedCount ?? body.count;
  return submitTask(deps, auth, { model: model.id, format: model.format, prompt: body.prompt, size: body.size, count, action: "generate" }, onQueued);
}

/** Upscales or varies result `index` of a finished task of the caller's (spec §7 Images: operate). */
export async function operateImage(
  deps: ImageDeps,
  auth: Auth,
  taskId: string,
  body: z.infer<typeof operateImageBody>,
  onQueued: (row: Row) => Promise<void>,
): Promise<Row> {
  await deps.models.ready();
  const parent = await ownTask(deps, auth, taskId);
  if (parent.status !== "succeeded") throw new ServiceError("validation", "image_task_unfinished", {}, { field: "taskId" });
  const resolved = deps.models.imageGenerator(parent.model);
  if (!resolved) throw new ServiceError("image_unavailable", "image_unavailable");
  const { generator, model } = resolved;
  if (!generator.operations.includes(body.operation)) {
    throw new ServiceError("validation", "image_operation_unsupported", { model: model.id, operation: body.operation }, { field: "operation" });
  }
  const label = `${body.operation === "upscale" ? "U" : "V"}${body.index}`;
  if (!actionsOf(parent, generator).includes(label))
    throw new ServiceError("validation", "image_index_out_of_range", { index: body.index }, { field: "index" });
  const options = parse<{ size?: ImageSize }>(parent.options, {});
  return submitTask(
    deps,
    auth,
    {
      model: model.id,
      format: model.format,
      prompt: parent.prompt,
      size: options.size ?? "1024x1024",
      count: 1,
      action: body.operation,
      parentTaskId: parent.id,
      parentIndex: body.index,
    },
    onQueued,
  );
}

/** One of the caller's tasks: read from the database only, so polling never reaches the provider. */
export async function getImageTask(deps: Pick<Deps, "db" | "models">, auth: Auth, taskId: string, language: Language): Promise<TaskView> {
  return taskView(deps, await ownTask(deps, auth, taskId), language);
}

/** The caller's tasks in their current space, newest first: the /paint gallery. */
export async function listImageTasks(
  deps: Pick<Deps, "db" | "models">,
  auth: Auth,
  query: { pageNo?: number | undefined; pageSize?: number | undefined },
  language: Language,
) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? IMAGE_PAGE_SIZE, IMAGE_PAGE_SIZE_MAX);
  const mine = and(eq(imageTasks.userId, auth.userId), eq(imageTasks.spaceId, auth.spaceId));
  const rows = await deps.db
    .select()
    .from(imageTasks)
    .where(mine)
    .orderBy(desc(imageTasks.createdAt), desc(imageTasks.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize)
    .all();
  const total = (await deps.db.select({ total: count() }).from(imageTasks).where(mine).get())?.total ?? 0;
  return { items: rows.map((row) => taskView(deps, row, language)), total, pageNo, pageSize };
}

/** A result's bytes for its owner (461 for anyone else or a result that is not there). */
export async function readImageResult(deps: Pick<Deps, "db" | "files">, auth: Auth, taskId: string, index: number) {
  const row = await ownTask(deps, auth, taskId);
  const result = parse<StoredResult[]>(row.results, [])[index - 1];
  if (!result) throw notFound();
  const stream = await deps.files.get(result.key);
  if (!stream) throw notFound();
  const extension = result.contentType.split("/")[1] ?? "png";
  return { stream, contentType: result.contentType, sizeBytes: result.sizeBytes, filename: `${row.id}-${index}.${extension}` };
}

/** How the worker drives a task at its provider. */
export interface RunOptions {
  /** Pause between polls of a running provider task. */
  pollMs: number;
  /** How long a task may run before it fails as a generation issue (561). */
  deadlineMs: number;
  signal?: AbortSignal;
  /** Keeps the job's lease while the task runs. */
  heartbeat?: () => Promise<void>;
}

/** Polls of a provider task in a row that may fail on the network before the task fails. */
const POLL_FAILURES_TOLERATED = 5;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });

/**
 * Runs one task to its end: submits it (or, after a restart, resumes polling its provider task),
 * records progress as it is polled, stores the pictures through the files store and settles the
 * held credits; a failure releases them (nothing is charged) and records the §8 status. Never
 * throws for the provider's failures: the task records them. Answers false when it was stopped
 * early (the worker hands the job back and another run resumes it).
 */
export async function runImageTask(deps: ImageDeps, taskId: string, options: RunOptions): Promise<boolean> {
  const row = await deps.db.select().from(imageTasks).where(eq(imageTasks.id, taskId)).get();
  if (!row || row.status === "succeeded" || row.status === "failed") return true;
  const hold = parse<CreditHold | null>(row.hold, null);
  const update = (values: Partial<Row>) =>
    deps.db
      .update(imageTasks)
      .set({ ...values, updatedAt: deps.now().toISOString() })
      .where(eq(imageTasks.id, taskId));
  const fail = async (kind: ImageErrorKind, detail: string) => {
    if (hold) await releaseHold(deps, hold);
    const { code } = FAILURES[kind];
    deps.logger.warn("image task failed", { taskId, model: row.model, code, detail });
    await update({
      status: "failed",
      errorCode: code,
      errorDetail: detail.slice(0, 1000),
      hold: null,
      creditsCharged: 0,
      finishedAt: deps.now().toISOString(),
    });
    return true;
  };
  const resolved = deps.models.imageGenerator(row.model);
  if (!resolved) return fail("unavailable", `${row.model} is no longer served by an enabled provider`);
  const { generator } = resolved;
  const options_ = parse<{ size?: ImageSize; count?: number }>(row.options, {});
  const size = options_.size ?? "1024x1024";
  const started = Date.now();
  await update({ status: "running" });

  let step: ImageStep;
  try {
    if (row.providerTaskId) step = { state: "running", providerTaskId: row.providerTaskId, progress: row.progress };
    else if (row.action === "generate") {
      step = await generator.generate({ prompt: row.prompt, size, count: options_.count ?? 1, ...(options.signal ? { signal: options.signal } : {}) });
    } else {
      const parent = row.parentTaskId ? await deps.db.select().from(imageTasks).where(eq(imageTasks.id, row.parentTaskId)).get() : undefined;
      if (!parent) return fail("failed", "the parent task is gone");
      const results = parse<StoredResult[]>(parent.results, []);
      const chosen = results[(row.parentIndex ?? 1) - 1] ?? results[0];
      const image = generator.format === "openai" && chosen ? await deps.files.read(chosen.key) : undefined;
      step = await generator.operate({
        operation: row.action,
        index: row.parentIndex ?? 1,
        parent: { providerTaskId: parent.providerTaskId, buttons: parse<ImageButton[]>(parent.buttons, []), ...(image ? { image } : {}) },
        size,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
    let failures = 0;
    while (step.state === "running") {
      if (step.providerTaskId !== row.providerTaskId || step.progress !== row.progress) {
        await update({ providerTaskId: step.providerTaskId, progress: step.progress });
        row.providerTaskId = step.providerTaskId;
        row.progress = step.progress;
      }
      await options.heartbeat?.();
      if (hold) await extendHold(deps, hold);
      if (Date.now() - started > options.deadlineMs) return fail("failed", `no result within ${Math.round(options.deadlineMs / 1000)} s`);
      await sleep(options.pollMs, options.signal);
      if (options.signal?.aborted) return false;
      try {
        step = await generator.poll(step.providerTaskId, options.signal);
        failures = 0;
      } catch (error) {
        // A poll lost on the network does not end the task; the provider still draws it.
        if (error instanceof ImageError && error.kind === "unavailable" && ++failures < POLL_FAILURES_TOLERATED) continue;
        throw error;
      }
    }
    const finished = step;
    const stored: StoredResult[] = [];
    for (const [index, image] of finished.images.entries()) {
      const key = fileKey("images", row.spaceId, row.id, `${index + 1}.${image.contentType.split("/")[1] ?? "png"}`);
      await deps.files.put(key, image.bytes);
      stored.push({ key, contentType: image.contentType, sizeBytes: image.bytes.length });
    }
    const reference = `image:${row.id}`;
    const charged = hold ? (await settleHold(deps, hold, { credits: row.creditsHeld, reference })).charged : 0;
    await deps.db.insert(usageRecords).values({
      id: newId("use"),
      spaceId: row.spaceId,
      prompt: row.prompt,
      answer: "",
      model: `image:${row.model}`,
      credits: charged,
      createdAt: deps.now().toISOString(),
    });
    await update({
      status: "succeeded",
      progress: 100,
      results: JSON.stringify(stored),
      buttons: JSON.stringify(finished.buttons ?? []),
      revisedPrompt: finished.images.find((image) => image.revisedPrompt)?.revisedPrompt ?? null,
      ...(finished.providerTaskId ? { providerTaskId: finished.providerTaskId } : {}),
      creditsCharged: charged,
      hold: null,
      finishedAt: deps.now().toISOString(),
    });
    return true;
  } catch (error) {
    if (options.signal?.aborted) return false;
    if (error instanceof ImageError) return fail(error.kind, error.message);
    return fail("unknown", error instanceof Error ? error.message : String(error));
  }
}

/**
 * Ends a task whose job failed outside the provider's answer (the worker gave up on it): the
 * credits are released and the task failed as unknown (599), so its owner may start another.
 */
export async function abandonImageTask(deps: ImageDeps, taskId: string, detail: string): Promise<void> {
  const row = await deps.db.select().from(imageTasks).where(eq(imageTasks.id, taskId)).get();
  if (!row || row.status === "succeeded" || row.status === "failed") return;
  const hold = parse<CreditHold | null>(row.hold, null);
  if (hold) await releaseHold(deps, hold);
  const now = deps.now().toISOString();
  await deps.db
    .update(imageTasks)
    .set({ status: "failed", errorCode: 599, errorDetail: detail.slice(0, 1000), hold: null, creditsCharged: 0, finishedAt: now, updatedAt: now })
    .where(eq(imageTasks.id, taskId));
}
