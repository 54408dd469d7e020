import { Empty, Typography } from "antd";
import type { ReactNode } from "react";

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  /** What is (not yet) here, e.g. "Knowledge bases are on their way". */
  title: ReactNode;
  description?: ReactNode;
  /** Replaces antd's default illustration. */
  icon?: ReactNode;
  /** A call to action below the text. */
  action?: ReactNode;
  /** Tighter spacing, for use inside tabs and cards. */
  compact?: boolean;
  "data-testid"?: string;
}

/**
 * The product's standard empty state: an illustration, a title, an optional explanation and
 * an optional action. Screens that have nothing to show yet use it instead of fake data.
 */
export function EmptyState({ title, description, icon, action, compact = false, "data-testid": testId }: EmptyStateProps) {
  return (
    <div className={compact ? "pl-empty pl-empty--compact" : "pl-empty"} data-testid={testId ?? "empty-state"}>
      <Empty
        image={icon ?? Empty.PRESENTED_IMAGE_SIMPLE}
        styles={{ image: { height: icon ? "auto" : 64, marginBottom: 16 } }}
        description={
          <div className="pl-empty__text">
            <Typography.Title level={5} className="pl-empty__title">
              {title}
            </Typography.Title>
            {description ? (
              <Typography.Paragraph type="secondary" className="pl-empty__description">
                {description}
              </Typography.Paragraph>
            ) : null}
          </div>
        }
      >
        {action}
      </Empty>
    </div>
  );
}
