import { Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSpaceQuery } from "../../lib/api/query";
import { templateEndpoints, type ContactRequest } from "../../lib/api/templates";
import { formatDateTime } from "../../lib/format";

const PAGE_SIZE = 20;

/** The instance page's tab of contact-form requests, newest first. */
export function ContactRequestsTab() {
  const { t, i18n } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const page = useSpaceQuery({ key: ["instance", "contact-requests", pageNo], fetch: (signal) => templateEndpoints.contacts(pageNo, PAGE_SIZE, { signal }) });
  return (
    <Table<ContactRequest>
      rowKey="id"
      loading={page.isFetching}
      dataSource={page.data?.items ?? []}
      pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: page.data?.total ?? 0, onChange: setPageNo, showSizeChanger: false }}
      columns={[
        { title: t("contactForm.admin.name"), key: "name", render: (_, row) => `${row.firstName} ${row.lastName}` },
        { title: t("contactForm.admin.email"), dataIndex: "email" },
        { title: t("contactForm.admin.company"), dataIndex: "companyName" },
        {
          title: t("contactForm.admin.mailed"),
          dataIndex: "mailed",
          render: (mailed: boolean) => (
            <Tag color={mailed ? "green" : "orange"}>{mailed ? t("contactForm.admin.mailedYes") : t("contactForm.admin.mailedNo")}</Tag>
          ),
        },
        { title: t("contactForm.admin.received"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
      ]}
      data-testid="contact-requests-table"
    />
  );
}
