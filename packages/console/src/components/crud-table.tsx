import { SearchOutlined } from "@ant-design/icons";
import { Button, Input, Table, type TableProps } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDeleteButton } from "./confirm-delete-button";
import { EmptyState, type EmptyStateProps } from "./empty-state";

/** What {@link CrudTable} needs of a list query (a TanStack query result fits). */
export interface ListQuery<Row> {
  data: Row[] | undefined;
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** Props of {@link CrudTable}. */
export interface CrudTableProps<Row> extends Omit<TableProps<Row>, "dataSource" | "loading" | "locale" | "columns" | "pagination"> {
  query: ListQuery<Row>;
  columns: ColumnsType<Row>;
  /** Shown when the list is empty. */
  empty: EmptyStateProps;
  /** Shown instead when loading failed, with a retry button. */
  failed: EmptyStateProps & { retryTestId?: string };
  /** A name filter above the table, applied to the loaded rows. */
  search?: { placeholder: string; match: (row: Row, term: string) => boolean; "data-testid"?: string };
  /** Page size of client-side paging; the table shows every row when absent. */
  pageSize?: number;
  /** Delete with a confirmation naming the row, in a last "Actions" column. */
  remove?: { run: (row: Row) => void | Promise<void>; name: (row: Row) => string; testId: (row: Row) => string; title: ReactNode };
}

/**
 * A list of records as a table: loading, an empty state, a load-failed state with retry, an
 * optional name search and paging, and delete after a confirmation. Create and edit dialogs
 * (see FormDialog) sit beside it.
 */
export function CrudTable<Row extends object>({ query, columns, empty, failed, search, pageSize, remove, ...table }: CrudTableProps<Row>) {
  const { t } = useTranslation();
  const [term, setTerm] = useState("");
  const rows = useMemo(() => {
    const all = query.data ?? [];
    const trimmed = term.trim();
    return search && trimmed ? all.filter((row) => search.match(row, trimmed)) : all;
  }, [query.data, search, term]);

  const allColumns: ColumnsType<Row> = remove
    ? [
        ...columns,
        {
          key: "actions",
          title: remove.title,
          align: "right",
          render: (_value, row) => <ConfirmDeleteButton name={remove.name(row)} onConfirm={() => remove.run(row)} data-testid={remove.testId(row)} />,
        },
      ]
    : columns;

  const { retryTestId, ...failedState } = failed;
  return (
    <>
      {search ? (
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={search.placeholder}
          aria-label={search.placeholder}
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          className="pl-crud-search"
          data-testid={search["data-testid"]}
        />
      ) : null}
      <Table<Row>
        {...table}
        loading={query.isFetching}
        dataSource={rows}
        columns={allColumns}
        pagination={pageSize ? { pageSize, hideOnSinglePage: true } : false}
        locale={{
          emptyText: query.isError ? (
            <EmptyState
              compact
              {...failedState}
              action={
                <Button onClick={() => void query.refetch()} data-testid={retryTestId}>
                  {t("common.retry")}
                </Button>
              }
            />
          ) : (
            <EmptyState compact {...empty} />
          ),
        }}
      />
    </>
  );
}
