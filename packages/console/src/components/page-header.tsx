import { Breadcrumb, Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** One step of the breadcrumb trail. */
export interface Crumb {
  label: ReactNode;
  to?: string;
}

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Actions shown on the right, e.g. a primary "Create" button. */
  extra?: ReactNode;
  breadcrumb?: Crumb[];
}

/** The title block at the top of every console screen. */
export function PageHeader({ title, subtitle, extra, breadcrumb }: PageHeaderProps) {
  return (
    <header className="pl-page-header">
      {breadcrumb && breadcrumb.length > 0 ? (
        <Breadcrumb
          className="pl-page-header__crumbs"
          items={breadcrumb.map((crumb) => ({ title: crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : crumb.label }))}
        />
      ) : null}
      <Flex align="flex-start" justify="space-between" gap={16} wrap>
        <div className="pl-page-header__text">
          <Typography.Title level={3} className="pl-page-header__title">
            {title}
          </Typography.Title>
          {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
        </div>
        {extra ? (
          <Flex gap={8} wrap>
            {extra}
          </Flex>
        ) : null}
      </Flex>
    </header>
  );
}
