import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_workflow_crash_owner_key_0123456";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-workflow-crash-"));
// A short lease so the restarted server takes over the dead one's run within seconds.
const env = { PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_JOB_LEASE_SECONDS: "2" };
let parley: ParleyProcess | undefined;

afterAll(async () => {
  await parley?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface NodeView {
  nodeId: string;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
}
interface RunView {
  id: string;
  status: string;
  waitingUntil: string | null;
  output: unknown;
  error: string | null;
  nodes: NodeView[];
}

const call = <T>(method: string, pathname: string, body?: unknown) => apiCall<T>(parley!.url, ownerKey, method, pathname, body);

async function waitForRun(runId: string, done: (run: RunView) => boolean, timeoutMs: number): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await call<RunView>("GET", `/api/v1/workflow-runs/${runId}`);
    if (done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config: { name: id, ...config }, position: { x: 0, y: 0 } });
const line = (source: string, target: string) => ({ id: `${source}-${target}`, source, target, sourceHandle: null });

async function workflowWith(middle: ReturnType<typeof node>): Promise<string> {
  const workflow = await call<{ id: string }>("POST", "/api/v1/workflows", {
    name: "Crash test",
    description: "survives kill -9",
    avatarUrl: "https://example.com/a.png",
    category: "test",
  });
  await call("PUT", `/api/v1/workflows/${workflow.id}/graph`, {
    elements: [
      node("start", "start"),
      node("before", "fixed_reply", { content: "got {{sys.query}}" }),
      middle,
      node("after", "fixed_reply", { content: "{{before.output}} and finished" }),
      node("end", "end", { output: "{{after.output}}" }),
    ],
    lines: [line("start", "before"), line("before", middle.id), line(middle.id, "after"), line("after", "end")],
  });
  return workflow.id;
}

describe("workflow runs survive kill -9", () => {
  it("a run parked on a timer resumes to success after a SIGKILL and restart", async () => {
    parley = await startParley(env, { dataDir });
    const workflowId = await workflowWith(node("wait", "timer", { delaySeconds: 4 }));
    const started = await call<RunView>("POST", `/api/v1/workflows/${workflowId}/runs`, { query: "parcel" });
    const parked = await waitForRun(started.id, (run) => run.waitingUntil !== null, 20_000);
    expect(parked.status).toBe("running");
    const beforeNode = parked.nodes.find((entry) => entry.nodeId === "before")!;
    expect(beforeNode.status).toBe("success");
    await parley.kill();

    parley = await startParley(env, { dataDir });
    const after = await waitForRun(started.id, (run) => run.status !== "running", 60_000);
    expect(after.status, after.error ?? "").toBe("success");
    expect(after.output).toBe("got parcel and finished");
    // The nodes completed before the crash were not run again.
    expect(after.nodes.find((entry) => entry.nodeId === "before")!.finishedAt).toBe(beforeNode.finishedAt);
  }, 120_000);

  it("a run killed in the middle of a node is resumed by the restarted server (that node runs again) — never left running", async () => {
    const workflowId = await workflowWith(
      node("work", "code_block", {
        code: "function main() { const end = Date.now() + 3000; while (Date.now() < end) {} return { done: true } }",
        timeoutMs: 10_000,
      }),
    );
    const started = await call<RunView>("POST", `/api/v1/workflows/${workflowId}/runs`, { query: "job" });
    const midway = await waitForRun(started.id, (run) => run.nodes.some((entry) => entry.nodeId === "work" && entry.status === "running"), 20_000);
    const beforeNode = midway.nodes.find((entry) => entry.nodeId === "before")!;
    await parley!.kill();

    parley = await startParley(env, { dataDir });
    const after = await waitForRun(started.id, (run) => run.status !== "running", 60_000);
    expect(after.status, after.error ?? "").toBe("success");
    expect(after.output).toBe("got job and finished");
    expect(after.nodes.find((entry) => entry.nodeId === "before")!.finishedAt).toBe(beforeNode.finishedAt);
  }, 120_000);
});
