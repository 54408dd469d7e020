import { Tooltip, Typography } from "antd";
import type { DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { GROUP_COLORS, NODE_ICONS, nodeTypeHintKey, nodeTypeLabelKey } from "./node-visuals";
import { NODE_GROUPS, NODE_TYPES_BY_GROUP, type NodeType } from "./workflow-model";

/** The drag payload type the canvas accepts. */
export const NODE_DRAG_TYPE = "application/x-parley-workflow-node";

/** Props of {@link NodePalette}. */
export interface NodePaletteProps {
  /** Adds a node of this type (on click; dragging onto the canvas drops it where it lands). */
  onAdd?: (type: NodeType) => void;
  /** Types that cannot be added again (start and end once present). */
  disabled?: ReadonlySet<NodeType>;
}

/** The node palette grouped as basic, branch and individuality (spec §3); drag or click to add. */
export function NodePalette({ onAdd, disabled = new Set() }: NodePaletteProps) {
  const { t } = useTranslation();
  const onDragStart = (event: DragEvent, type: NodeType) => {
    event.dataTransfer.setData(NODE_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = "move";
  };
  return (
    <nav className="pl-wf-palette" aria-label={t("workflows.palette.title")} data-testid="wf-palette">
      {NODE_GROUPS.map((group) => (
        <section key={group} className="pl-wf-palette__group" data-testid={`wf-palette-group-${group}`}>
          <Typography.Text type="secondary" className="pl-wf-palette__group-title">
            {t(`workflows.palette.groups.${group}`)}
          </Typography.Text>
          <div className="pl-wf-palette__items">
            {NODE_TYPES_BY_GROUP[group].map((type) => {
              const off = disabled.has(type);
              return (
                <Tooltip key={type} title={t(nodeTypeHintKey(type))} placement="right">
                  <button
                    type="button"
                    className="pl-wf-palette__item"
                    style={{ ["--pl-wf-accent" as string]: GROUP_COLORS[group] }}
                    draggable={!off}
                    disabled={off}
                    onDragStart={(event) => onDragStart(event, type)}
                    onClick={() => onAdd?.(type)}
                    data-testid={`wf-palette-${type}`}
                  >
                    <span className="pl-wf-palette__icon">{NODE_ICONS[type]}</span>
                    <span>{t(nodeTypeLabelKey(type))}</span>
                  </button>
                </Tooltip>
              );
            })}
          </div>
        </section>
      ))}
    </nav>
  );
}
