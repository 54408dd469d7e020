import {
  applyNodeChanges,
  Background,
  ControlButton,
  Controls,
  Handle,
  MiniMap,
  Position,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type NodeProps,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { PictureOutlined } from "@ant-design/icons";
import { useCallback, useEffect, useMemo, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { NodeCard, type NodeRunStatus } from "./node-card";
import { NODE_DRAG_TYPE } from "./node-palette";
import { nodeTypeLabelKey } from "./node-visuals";
import { branchesOf, isNodeType, sourceHandlesOf, type NodeType, type WorkflowElement, type WorkflowGraph } from "./workflow-model";

/** What the canvas shows on a node besides its element. */
export interface NodeDecoration {
  status?: NodeRunStatus;
  durationMs?: number | null;
  issues?: string[];
}

type FlowNodeData = { element: WorkflowElement; decoration: NodeDecoration; summary: string };
type FlowNode = Node<FlowNodeData, "workflow">;

/** Props of {@link WorkflowCanvas}. */
export interface WorkflowCanvasProps {
  graph: WorkflowGraph;
  selectedId?: string;
  decorations: Record<string, NodeDecoration>;
  /** A short line under each node's name. */
  summarize: (element: WorkflowElement) => string;
  onSelect: (nodeId: string | undefined) => void;
  onMove: (nodeId: string, position: { x: number; y: number }) => void;
  onConnect: (source: string, sourceHandle: string | null, target: string) => void;
  onRemoveNodes: (nodeIds: string[]) => void;
  onRemoveLines: (lineIds: string[]) => void;
  /** A palette item dropped at a canvas position. */
  onDrop: (type: NodeType, position: { x: number; y: number }) => void;
}

function WorkflowNode({ id, data, selected }: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const { element, decoration, summary } = data;
  const branches =
    element.type === "intent_branch" || element.type === "logic_branch"
      ? branchesOf(element).map((branch) => ({ id: branch.id, label: branch.isElse ? t("workflows.form.elseBranch") : branch.name, isElse: branch.isElse }))
      : undefined;
  return (
    <NodeCard
      id={id}
      type={element.type}
      name={element.config.name}
      summary={summary}
      selected={selected}
      status={decoration.status}
      durationMs={decoration.durationMs}
      issues={decoration.issues}
      branches={branches}
      hasSourceHandle={sourceHandlesOf(element).length > 0}
      renderTargetHandle={
        element.type === "start"
          ? undefined
          : () => <Handle type="target" position={Position.Left} className="pl-wf-handle" data-testid={`wf-handle-in-${id}`} />
      }
      renderSourceHandle={(handle) => (
        <Handle
          type="source"
          position={Position.Right}
          id={handle ?? undefined}
          className="pl-wf-handle pl-wf-handle--source"
          data-testid={handle ? `wf-handle-out-${id}-${handle}` : `wf-handle-out-${id}`}
        />
      )}
    />
  );
}

const NODE_TYPES = { workflow: WorkflowNode };

/**
 * The editing canvas on @xyflow/react: nodes from the graph's elements (positions kept while
 * dragging, written back when a drag ends), lines as edges with their branch handle, palette
 * drops, connections, and Delete/Backspace to remove the selection.
 */
export function WorkflowCanvas({
  graph,
  selectedId,
  decorations,
  summarize,
  onSelect,
  onMove,
  onConnect,
  onRemoveNodes,
  onRemoveLines,
  onDrop,
}: WorkflowCanvasProps) {
  const { t } = useTranslation();
  const { screenToFlowPosition } = useReactFlow();
  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [selectedLines, setSelectedLines] = useState<ReadonlySet<string>>(new Set());
  // Off by default: in the corner of a canvas beside the side panel it lay over the nodes.
  const [minimap, setMinimap] = useState(false);

  useEffect(() => {
    setNodes((previous) =>
      graph.elements.map((element, index) => {
        const old = previous.find((node) => node.id === element.id);
        return {
          ...(old ?? {}),
          id: element.id,
          type: "workflow" as const,
          // While a drag is under way the canvas owns the position.
          position: old?.dragging ? old.position : (element.position ?? old?.position ?? { x: 80 + index * 260, y: 200 }),
          selected: element.id === selectedId,
          data: { element, decoration: decorations[element.id] ?? {}, summary: summarize(element) },
          ariaLabel: `${t(nodeTypeLabelKey(element.type))}: ${element.config.name}`,
        };
      }),
    );
  }, [graph.elements, selectedId, decorations, summarize, t]);

  const edges = useMemo<Edge[]>(
    () =>
      graph.lines.map((line) => {
        const running =
          decorations[line.source]?.status === "success" &&
          decorations[line.target]?.status !== undefined &&
          decorations[line.target]?.status !== "no_execution";
        return {
          id: line.id,
          source: line.source,
          target: line.target,
          sourceHandle: line.sourceHandle ?? null,
          selected: selectedLines.has(line.id),
          animated: running,
          className: running ? "pl-wf-edge--taken" : undefined,
        };
      }),
    [graph.lines, selectedLines, decorations],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const removed = changes.flatMap((change) => (change.type === "remove" ? [change.id] : []));
      setNodes((current) => applyNodeChanges(changes, current));
      for (const change of changes) {
        if (change.type === "position" && change.dragging === false && change.position) onMove(change.id, change.position);
        if (change.type === "select" && change.selected) onSelect(change.id);
      }
      if (removed.length > 0) onRemoveNodes(removed);
    },
    [onMove, onSelect, onRemoveNodes],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const removed = changes.filter((change) => change.type === "remove").map((change) => change.id);
      const selection = changes.filter((change) => change.type === "select");
      if (selection.length > 0) {
        setSelectedLines((current) => {
          const next = new Set(current);
          for (const change of selection) {
            if (change.type !== "select") continue;
            if (change.selected) next.add(change.id);
            else next.delete(change.id);
          }
          return next;
        });
      }
      if (removed.length > 0) onRemoveLines(removed);
    },
    [onRemoveLines],
  );

  const handleConnect = useCallback((connection: Connection) => onConnect(connection.source, connection.sourceHandle ?? null, connection.target), [onConnect]);

  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    const type = event.dataTransfer.getData(NODE_DRAG_TYPE);
    if (!isNodeType(type)) return;
    onDrop(type, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };

  return (
    <div
      className="pl-wf-canvas"
      data-testid="wf-canvas"
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
      }}
      onDrop={handleDrop}
    >
      <ReactFlow<FlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={handleConnect}
        onPaneClick={() => onSelect(undefined)}
        deleteKeyCode={["Delete", "Backspace"]}
        fitView
        fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={16} />
        <Controls showInteractive={false}>
          <ControlButton
            onClick={() => setMinimap((shown) => !shown)}
            title={t(minimap ? "workflows.canvas.hideMinimap" : "workflows.canvas.showMinimap")}
            aria-label={t(minimap ? "workflows.canvas.hideMinimap" : "workflows.canvas.showMinimap")}
            aria-pressed={minimap}
            data-testid="wf-minimap-toggle"
          >
            <PictureOutlined />
          </ControlButton>
        </Controls>
        {minimap ? <MiniMap pannable zoomable position="top-right" className="pl-wf-minimap" /> : null}
      </ReactFlow>
    </div>
  );
}
