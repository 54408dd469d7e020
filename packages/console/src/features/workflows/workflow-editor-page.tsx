import { ArrowLeftOutlined, CaretRightOutlined, ClockCircleOutlined, DeleteOutlined, HistoryOutlined, SaveOutlined } from "@ant-design/icons";
import { PublishButton } from "../store/publish-button";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { Alert, App, Button, Empty, Flex, Popconfirm, Skeleton, Tabs, Tag, Typography } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker, useNavigate, useSearchParams } from "react-router";
import { invalidateSpace, mapData, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { AppAvatar } from "../../components/app-avatar";
import { EmptyState } from "../../components/empty-state";
import type { NodeRunStatus } from "./node-card";
import { NodeForm, type NodeFormOptions } from "./node-forms";
import { NodePalette } from "./node-palette";
import { NODE_ICONS, nodeTypeLabelKey } from "./node-visuals";
import { HistoryPanel, type RunSummaryView } from "./history-panel";
import { RunDetail, type RunView } from "./run-detail";
import { NodeRunForm, RunInputsForm, type FlowInputs } from "./run-panel";
import { SchedulerPanel, type SchedulerActions, type SchedulerView } from "./scheduler-panel";
import { useNodeOptions } from "./use-node-options";
import { WORKFLOWS, WORKFLOWS_LIST } from "./workflows-page";
import { WorkflowCanvas, type NodeDecoration } from "./workflow-canvas";
import { workflowEndpoints, type ServerIssue, type Workflow, type WorkflowRun } from "../../lib/api/workflows";
import { fieldOfIssue, graphOf, wireOf } from "./workflow-wire";
import {
  addNode,
  connect,
  insertNode,
  moveNode,
  removeLines,
  removeNode,
  updateConfig,
  type NodeConfig,
  type NodeType,
  type WorkflowElement,
  type WorkflowGraph,
} from "./workflow-model";
import { checkGraph, type WorkflowIssue } from "./workflow-rules";
import "./workflows.css";

type Panel = "node" | "run" | "scheduler" | "history";

function runViewOf(run: WorkflowRun): RunView {
  return { ...run, nodes: run.nodes.map((node) => ({ ...node, status: node.status as NodeRunStatus })) };
}

/** /console/workflow?id=…: the workflow editor (canvas, node forms, run, scheduler, history). */
export function WorkflowEditorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id");
  if (!id) {
    return (
      <div className="pl-card">
        <EmptyState title={t("workflows.editor.missingTitle")} description={t("workflows.editor.missingDescription")} data-testid="wf-editor-missing" />
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <WorkflowEditor key={id} id={id} />
    </ReactFlowProvider>
  );
}

function WorkflowEditor({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const options = useNodeOptions();
  const { fitView } = useReactFlow();
  const detailKey = [...WORKFLOWS, "detail", id];
  const runsKey = [...WORKFLOWS, "runs", id];
  const schedulerKey = [...WORKFLOWS, "scheduler", id];
  const detail = useSpaceQuery({ key: detailKey, fetch: (signal) => workflowEndpoints.get(id, { signal }) });
  const workflow = detail.data;
  const [graph, setGraph] = useState<WorkflowGraph>({ elements: [], lines: [] });
  // The canvas edits a copy of the loaded graph; a (re)load replaces it only while nothing is unsaved.
  const [graphSource, setGraphSource] = useState<Workflow>();
  const [dirty, setDirty] = useState(false);
  const [checked, setChecked] = useState(false);
  const [serverIssues, setServerIssues] = useState<ServerIssue[]>([]);
  const [selectedId, setSelectedId] = useState<string>();
  const [panel, setPanel] = useState<Panel>("node");
  const [saving, setSaving] = useState(false);
  const [run, setRun] = useState<RunView>();
  const [starting, setStarting] = useState(false);
  const [runError, setRunError] = useState<string>();
  const [historyDetail, setHistoryDetail] = useState<RunView>();
  const [nodeRunFor, setNodeRunFor] = useState<string>();
  // The schedule loads the first time its tab opens, then stays (the panel's changes update it).
  const [schedulerOpened, setSchedulerOpened] = useState(false);
  const { modal } = App.useApp();
  if (workflow && workflow !== graphSource && !dirty) {
    setGraphSource(workflow);
    setGraph(graphOf(workflow));
  }
  if (panel === "scheduler" && !schedulerOpened) setSchedulerOpened(true);
  // The history reloads each time its tab opens and when a run finishes.
  const runsQuery = useSpaceQuery<RunSummaryView[]>({
    key: runsKey,
    fetch: (signal) => mapData(workflowEndpoints.runs(id, 1, 50, { signal }), (page) => page.items),
    enabled: panel === "history",
  });
  const runs = runsQuery.data ?? [];
  const scheduler = useSpaceQuery<SchedulerView>({
    key: schedulerKey,
    fetch: (signal) => workflowEndpoints.scheduler(id, { signal }),
    enabled: schedulerOpened,
  }).data;
  const setScheduler = (next: SchedulerView) => setSpaceData<SchedulerView>(schedulerKey, () => next);
  const showRun = (next: WorkflowRun) => {
    setRun(runViewOf(next));
    if (next.status !== "running") void invalidateSpace(runsKey);
  };

  // Leaving the editor inside the console with unsaved changes asks first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && `${currentLocation.pathname}${currentLocation.search}` !== `${nextLocation.pathname}${nextLocation.search}`,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    modal.confirm({
      title: t("workflows.editor.leaveTitle"),
      content: t("workflows.editor.leaveDescription"),
      okText: t("workflows.editor.leave"),
      cancelText: t("common.cancel"),
      okButtonProps: { danger: true },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);

  // Poll the shown run while it is running: the canvas follows each node's state.
  const runId = run?.id;
  const runRunning = run?.status === "running";
  useEffect(() => {
    if (!runId || !runRunning) return;
    let live = true;
    const timer = setTimeout(() => {
      void workflowEndpoints.runDetail(runId, { silent: true }).then((result) => {
        if (live && result.ok) showRun(result.data);
      });
    }, 500);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [runId, runRunning, run]);

  const issueText = useCallback((issue: WorkflowIssue) => t(issue.key, issue.params ?? {}), [t]);
  const clientIssues = useMemo(() => (checked ? checkGraph(graph) : []), [checked, graph]);

  /** Per node: field → message (the server's word wins over the local check on the same field). */
  const errorsByNode = useMemo(() => {
    const byNode = new Map<string, Record<string, string>>();
    const put = (nodeId: string, field: string, message: string, override: boolean) => {
      const errors = byNode.get(nodeId) ?? {};
      if (override || !(field in errors)) errors[field] = message;
      byNode.set(nodeId, errors);
    };
    for (const issue of clientIssues) if (issue.nodeId) put(issue.nodeId, issue.field ?? "", issueText(issue), false);
    // An issue the server could not word (no message) keeps the local wording, else shows its code.
    for (const issue of serverIssues) if (issue.nodeId) put(issue.nodeId, fieldOfIssue(issue), issue.message || issue.code, Boolean(issue.message));
    return byNode;
  }, [clientIssues, serverIssues, issueText]);

  const graphIssues = useMemo(() => {
    const messages = clientIssues.filter((issue) => !issue.nodeId).map(issueText);
    for (const issue of serverIssues) if (!issue.nodeId && !messages.includes(issue.message || issue.code)) messages.push(issue.message || issue.code);
    return messages;
  }, [clientIssues, serverIssues, issueText]);

  const shownRun = panel === "history" && historyDetail ? historyDetail : run;
  const decorations = useMemo(() => {
    const result: Record<string, NodeDecoration> = {};
    for (const element of graph.elements) {
      const errors = errorsByNode.get(element.id);
      const state = shownRun?.nodes.find((node) => node.nodeId === element.id);
      result[element.id] = {
        ...(errors ? { issues: Object.values(errors) } : {}),
        ...(state ? { status: state.status, durationMs: state.durationMs } : {}),
      };
    }
    return result;
  }, [graph.elements, errorsByNode, shownRun]);

  const summarize = useCallback((element: WorkflowElement) => summaryOf(element, options, t), [options, t]);

  const change = useCallback((next: (current: WorkflowGraph) => WorkflowGraph) => {
    setGraph(next);
    setDirty(true);
  }, []);

  const onSelect = useCallback((nodeId: string | undefined) => {
    setSelectedId(nodeId);
    if (nodeId) setPanel("node");
  }, []);
  const onMove = useCallback((nodeId: string, position: { x: number; y: number }) => change((current) => moveNode(current, nodeId, position)), [change]);
  const onConnect = useCallback(
    (source: string, handle: string | null, target: string) => change((current) => connect(current, source, handle, target)),
    [change],
  );
  const onRemoveNodes = useCallback(
    (nodeIds: string[]) => {
      change((current) => nodeIds.reduce((next, nodeId) => removeNode(next, nodeId), current));
      setServerIssues((current) => current.filter((issue) => !issue.nodeId || !nodeIds.includes(issue.nodeId)));
      setSelectedId((current) => (current && nodeIds.includes(current) ? undefined : current));
    },
    [change],
  );
  const onRemoveLines = useCallback((lineIds: string[]) => change((current) => removeLines(current, lineIds)), [change]);
  /** A palette drop lands where it was dropped; a palette click is inserted into the flow, connected. */
  const add = (type: NodeType, position?: { x: number; y: number }) => {
    const name = t(nodeTypeLabelKey(type));
    const elseName = t("workflows.form.elseBranch");
    const result = position ? addNode(graph, type, position, name, elseName) : insertNode(graph, type, name, { selectedId, elseName });
    change(() => result.graph);
    onSelect(result.element.id);
    // An insertion can move nodes right, out of view: show the whole flow once it is drawn.
    if (!position) requestAnimationFrame(() => requestAnimationFrame(() => void fitView({ maxZoom: 1, padding: 0.2, duration: 200 })));
  };
  const updateNode = (nodeId: string, config: NodeConfig) => {
    change((current) => updateConfig(current, nodeId, config));
    setServerIssues((current) => current.filter((issue) => issue.nodeId !== nodeId));
  };

  /** Saves the graph (kept even with problems); true when no rule is broken. */
  const save = async (): Promise<boolean> => {
    setChecked(true);
    setSaving(true);
    try {
      const result = await workflowEndpoints.saveGraph(id, wireOf(graph));
      if (!result.ok) {
        feedback.error(result.error.message || t("workflows.editor.saveFailed"));
        return false;
      }
      setGraphSource(result.data.workflow);
      setGraph(graphOf(result.data.workflow));
      setSpaceData<Workflow>(detailKey, () => result.data.workflow);
      void invalidateSpace(WORKFLOWS_LIST);
      setServerIssues(result.data.issues);
      setDirty(false);
      if (result.data.issues.length > 0) feedback.warning(t("workflows.editor.savedWithIssues", { count: result.data.issues.length }));
      else feedback.success(t("workflows.editor.saved"));
      return result.data.issues.length === 0;
    } finally {
      setSaving(false);
    }
  };

  const start = async (body: Parameters<typeof workflowEndpoints.run>[1]) => {
    setRunError(undefined);
    setStarting(true);
    try {
      const valid = await save();
      if (!valid) {
        setRunError(t("workflows.run.fixFirst"));
        return;
      }
      const result = await workflowEndpoints.run(id, { ...body, wait: false });
      if (!result.ok) {
        setRunError(result.error.message);
        return;
      }
      showRun(result.data);
      setHistoryDetail(undefined);
    } finally {
      setStarting(false);
    }
  };
  const runFlow = (inputs: FlowInputs) =>
    void start({
      type: "FLOW",
      query: inputs.query,
      ...(Object.keys(inputs.variables).length > 0 ? { variables: inputs.variables } : {}),
      ...(inputs.files.length > 0 ? { files: inputs.files } : {}),
    });
  const runNode = (nodeId: string, nodeInputs: Record<string, string>) => void start({ type: "NODE", nodeId, nodeInputs });

  const openRun = async (runId: string) => {
    const result = await workflowEndpoints.runDetail(runId);
    if (result.ok) setHistoryDetail(runViewOf(result.data));
  };

  const schedulerActions = useMemo<SchedulerActions>(
    () => ({
      generate: async (description) => {
        const result = await workflowEndpoints.generateCron(description);
        return result.ok ? { cron: result.data.cron, nextRuns: result.data.nextRuns } : { error: result.error.message };
      },
      preview: async (cron, timezone) => {
        const result = await workflowEndpoints.previewCron(cron, timezone);
        return result.ok ? { nextRuns: result.data.nextRuns } : { error: result.error.message };
      },
      save: async (cron, cronTimezone) => {
        const result = await workflowEndpoints.saveScheduler(id, { cron, cronTimezone, enabled: true });
        if (!result.ok) return { error: result.error.message };
        feedback.success(t("workflows.scheduler.saved"));
        return result.data;
      },
      clear: async () => {
        const result = await workflowEndpoints.clearScheduler(id);
        if (!result.ok) return undefined;
        feedback.success(t("workflows.scheduler.cleared"));
        return result.data;
      },
    }),
    [id, t],
  );

  if (detail.isError) {
    return (
      <div className="pl-card">
        <EmptyState
          title={t("workflows.editor.loadFailedTitle")}
          description={t("workflows.editor.loadFailedDescription")}
          action={<Button onClick={() => void detail.refetch()}>{t("common.retry")}</Button>}
          data-testid="wf-editor-load-failed"
        />
      </div>
    );
  }
  if (!workflow || !graphSource)
    return (
      <div className="pl-card pl-wf-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </div>
    );

  const selected = graph.elements.find((element) => element.id === selectedId);
  const taken = new Set<NodeType>(graph.elements.filter((element) => element.type === "start" || element.type === "end").map((element) => element.type));
  const startNode = graph.elements.find((element) => element.type === "start");

  const nodePanel = selected ? (
    <div data-testid="wf-node-panel">
      <Flex align="center" justify="space-between" className="pl-wf-side__head">
        <Flex gap={8} align="center">
          <span className="pl-wf-side__icon">{NODE_ICONS[selected.type]}</span>
          <Typography.Text strong>{t(nodeTypeLabelKey(selected.type))}</Typography.Text>
        </Flex>
        <Flex gap={4}>
          {selected.type !== "start" && selected.type !== "end" ? (
            <Button
              size="small"
              icon={<CaretRightOutlined />}
              onClick={() => {
                setNodeRunFor(selected.id);
                setPanel("run");
              }}
              data-testid="wf-node-run"
            >
              {t("workflows.run.runNode")}
            </Button>
          ) : null}
          <Popconfirm
            title={t("workflows.editor.deleteNodeTitle")}
            description={t("workflows.editor.deleteNodeDescription", { name: selected.config.name })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, "data-testid": "wf-node-delete-confirm" }}
            onConfirm={() => onRemoveNodes([selected.id])}
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t("workflows.editor.deleteNode")} data-testid="wf-node-delete" />
          </Popconfirm>
        </Flex>
      </Flex>
      <NodeForm
        key={selected.id}
        element={selected}
        onChange={(config) => updateNode(selected.id, config)}
        errors={errorsByNode.get(selected.id) ?? {}}
        options={options}
      />
    </div>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.editor.selectNode")} data-testid="wf-node-none" />
  );

  const nodeRunElement = nodeRunFor ? graph.elements.find((element) => element.id === nodeRunFor) : undefined;
  const runPanel = (
    <div data-testid="wf-run-panel">
      {nodeRunElement ? (
        <>
          <Button type="link" icon={<ArrowLeftOutlined />} onClick={() => setNodeRunFor(undefined)} className="pl-wf-history__back">
            {t("workflows.run.backToFlow")}
          </Button>
          <NodeRunForm
            key={nodeRunElement.id}
            element={nodeRunElement}
            running={starting || run?.status === "running"}
            onRun={(inputs) => runNode(nodeRunElement.id, inputs)}
          />
        </>
      ) : (
        <RunInputsForm key={startNode?.id ?? "none"} start={startNode} running={starting || run?.status === "running"} onRun={runFlow} />
      )}
      {runError ? <Alert type="error" showIcon title={runError} className="pl-wf-run__alert" data-testid="wf-run-refused" /> : null}
      {run ? <RunDetail run={run} onFocusNode={(nodeId) => setSelectedId(nodeId)} /> : null}
    </div>
  );

  return (
    <div className="pl-wf-editor" data-testid="wf-editor">
      <Flex className="pl-wf-toolbar" align="center" justify="space-between" gap={12} wrap>
        <Flex align="center" gap={10}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate(PATHS.workflows)}
            aria-label={t("workflows.editor.back")}
            data-testid="wf-back"
          />
          <AppAvatar name={workflow.name} src={workflow.avatarUrl} size={32} />
          <Typography.Title level={4} className="pl-wf-toolbar__title" data-testid="wf-title">
            {workflow.name}
          </Typography.Title>
          {workflow.isPublic ? <Tag color="success">{t("workflows.list.publishedYes")}</Tag> : null}
          {dirty ? (
            <Tag color="warning" data-testid="wf-dirty">
              {t("workflows.editor.unsaved")}
            </Tag>
          ) : null}
        </Flex>
        <Flex gap={8} wrap>
          <PublishButton workflowId={workflow.id} appName={workflow.name} />
          <Button icon={<HistoryOutlined />} onClick={() => setPanel("history")} data-testid="wf-open-history">
            {t("workflows.editor.history")}
          </Button>
          <Button icon={<ClockCircleOutlined />} onClick={() => setPanel("scheduler")} data-testid="wf-open-scheduler">
            {t("workflows.editor.scheduler")}
          </Button>
          <Button
            icon={<CaretRightOutlined />}
            onClick={() => {
              setNodeRunFor(undefined);
              setPanel("run");
            }}
            data-testid="wf-open-run"
          >
            {t("workflows.editor.run")}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="wf-save">
            {t("workflows.editor.save")}
          </Button>
        </Flex>
      </Flex>
      {graphIssues.length > 0 ? <Alert type="error" showIcon className="pl-wf-issues" title={graphIssues.join(" · ")} data-testid="wf-graph-issues" /> : null}
      <div className="pl-wf-body">
        <NodePalette onAdd={(type) => add(type)} disabled={taken} />
        <WorkflowCanvas
          graph={graph}
          selectedId={selectedId}
          decorations={decorations}
          summarize={summarize}
          onSelect={onSelect}
          onMove={onMove}
          onConnect={onConnect}
          onRemoveNodes={onRemoveNodes}
          onRemoveLines={onRemoveLines}
          onDrop={add}
        />
        <aside className="pl-wf-side" data-testid="wf-side">
          <Tabs
            activeKey={panel}
            onChange={(key) => setPanel(key as Panel)}
            size="small"
            items={[
              { key: "node", label: <span data-testid="wf-tab-node">{t("workflows.editor.node")}</span>, children: nodePanel },
              { key: "run", label: <span data-testid="wf-tab-run">{t("workflows.editor.run")}</span>, children: runPanel },
              {
                key: "scheduler",
                label: <span data-testid="wf-tab-scheduler">{t("workflows.editor.scheduler")}</span>,
                children: <SchedulerPanel scheduler={scheduler} actions={schedulerActions} onChanged={setScheduler} />,
              },
              {
                key: "history",
                label: <span data-testid="wf-tab-history">{t("workflows.editor.history")}</span>,
                children: (
                  <HistoryPanel
                    runs={runs}
                    loading={runsQuery.isFetching}
                    detail={historyDetail}
                    onRefresh={() => void runsQuery.refetch()}
                    onOpen={(runId) => void openRun(runId)}
                    onBack={() => setHistoryDetail(undefined)}
                    onFocusNode={(nodeId) => setSelectedId(nodeId)}
                  />
                ),
              },
            ]}
          />
        </aside>
      </div>
    </div>
  );
}

/** The line under a node's name on the canvas. */
function summaryOf(element: WorkflowElement, options: NodeFormOptions, t: (key: string, params?: Record<string, unknown>) => string): string {
  const config = element.config;
  const labelOf = (list: Array<{ value: string; label: string }>, value: unknown) =>
    typeof value === "string" && value ? (list.find((item) => item.value === value)?.label ?? value) : "";
  switch (element.type) {
    case "start": {
      const count = Array.isArray(config.variables) ? config.variables.length : 0;
      return t("workflows.summary.variables", { count });
    }
    case "end":
      return typeof config.output === "string" ? config.output : "";
    case "llm":
    case "intent_branch":
      return labelOf(options.models, config.model) || t("workflows.summary.noModel");
    case "app":
      return labelOf(options.apps, config.appId);
    case "knowledge_base":
      return t("workflows.summary.knowledgeBases", { count: Array.isArray(config.knowledgeBaseIds) ? config.knowledgeBaseIds.length : 0 });
    case "database":
      return labelOf(options.databases, config.databaseId);
    case "plugin":
      return labelOf(options.plugins, config.pluginCode);
    case "code_block":
      return "JavaScript";
    case "fixed_reply":
    case "manual":
      return typeof config.content === "string" ? config.content : "";
    case "channel_send":
      return config.mode === "webhook" ? t("workflows.form.modeWebhook") : labelOf(options.clients, config.clientId);
    case "timer":
      return typeof config.delaySeconds === "number"
        ? t("workflows.summary.delay", { seconds: config.delaySeconds })
        : typeof config.until === "string"
          ? config.until
          : "";
    default:
      return "";
  }
}
