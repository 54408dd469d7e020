import { Button, Result, Skeleton, Tabs, Tag } from "antd";
import { Suspense, useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate, useOutletContext, useSearchParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { DATABASES, databaseEndpoints, type Database } from "../../lib/api/databases";
import { useSpaceQuery } from "../../lib/api/query";
import { DATABASE_CHILDREN, PATHS } from "../../lib/paths";
import "./database.css";

/** One tab of a database's section. */
export type DatabaseTab = (typeof DATABASE_CHILDREN)[number];

/** The address of a database tab (the id rides along in `?id=`, as knowledge management does). */
export function databasePath(tab: DatabaseTab, databaseId: string, extra: Record<string, string> = {}): string {
  return `${PATHS.database}/${tab}?${new URLSearchParams({ id: databaseId, ...extra }).toString()}`;
}

/** What every database tab gets from the layout. */
export interface DatabaseContext {
  database: Database;
  /** Reads the database again (its counts move with tables and rows). */
  reload: () => Promise<void>;
}

/** The database the current tab works on. */
export function useDatabase(): DatabaseContext {
  return useOutletContext<DatabaseContext>();
}

/** The cache key of one database. */
export const databaseKey = (id: string) => [...DATABASES, id];

const skeleton = (
  <div className="pl-card">
    <Skeleton active paragraph={{ rows: 6 }} />
  </div>
);

/** /console/database/<tab>?id=db_…: the database's name, the three tabs keeping `?id=`, and the tab below. */
export function DatabaseSectionLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const query = useSpaceQuery({ key: databaseKey(id), enabled: id !== "", fetch: (signal) => databaseEndpoints.get(id, { silent: true, signal }) });
  const database = query.data;
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  const context = useMemo<DatabaseContext | undefined>(() => (database ? { database, reload } : undefined), [database, reload]);
  const active = DATABASE_CHILDREN.find((tab) => pathname === `${PATHS.database}/${tab}`);

  if (!id || (query.isError && !database)) {
    return (
      <Result
        status="404"
        title={t("database.section.missingTitle")}
        subTitle={t(id ? "database.section.missing" : "database.section.noneChosen")}
        extra={
          <Button type="primary" onClick={() => navigate(PATHS.database)} data-testid="database-back">
            {t("database.section.back")}
          </Button>
        }
        data-testid="database-missing"
      />
    );
  }

  return (
    <div className="pl-section" data-testid="database-section">
      <PageHeader
        breadcrumb={[{ label: t("screens.database.title"), to: PATHS.database }, { label: database?.name ?? "…" }]}
        title={
          <span data-testid="database-title">
            {database?.name ?? "…"} {database ? <Tag>{t(`database.types.${database.type}`)}</Tag> : null}
          </span>
        }
        subtitle={database?.description || undefined}
      />
      <Tabs
        className="pl-section__tabs"
        activeKey={active ?? ""}
        onChange={(key) => navigate(databasePath(key as DatabaseTab, id))}
        items={DATABASE_CHILDREN.map((tab) => ({ key: tab, label: <span data-testid={`tab-${tab}`}>{t(`screens.${tab}.title`)}</span> }))}
      />
      {context ? (
        <Suspense fallback={skeleton}>
          <Outlet context={context} />
        </Suspense>
      ) : (
        skeleton
      )}
    </div>
  );
}
