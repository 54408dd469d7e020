import { SyncOutlined } from "@ant-design/icons";
import { App, Button, Form, Select, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/form-dialog";
import { CUSTOMERS, customersEndpoints, SYNC_SOURCES } from "../../lib/api/customers";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";

/**
 * "Sync contacts" on the customer list (customer/sync): shown to members whose role may edit
 * customers; pulls the contacts of one WeCom app or official account the member reaches.
 */
export function CustomerSyncButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ clientId: string }>();
  const sources = useSpaceQuery({ key: SYNC_SOURCES, fetch: (signal) => customersEndpoints.syncSources({ signal, silent: true }) });
  if (!sources.data?.canSync) return null;
  const options = sources.data.sources.map((source) => ({
    value: source.clientId,
    label: `${source.name} · ${t(`customerSync.platform.${source.platform}`)}`,
  }));

  const submit = async (values: { clientId: string }): Promise<boolean> => {
    const result = await customersEndpoints.sync({ clientId: values.clientId }, { silent: true });
    if (!result.ok) {
      form.setFields([{ name: "clientId", errors: [result.error.message] }]);
      return false;
    }
    void message.success(t("customerSync.done", { created: result.data.created, updated: result.data.updated }));
    setOpen(false);
    await invalidateSpace(CUSTOMERS);
    return true;
  };

  return (
    <>
      <Button icon={<SyncOutlined />} onClick={() => setOpen(true)} data-testid="customer-sync">
        {t("customerSync.button")}
      </Button>
      <FormDialog<{ clientId: string }>
        open={open}
        title={t("customerSync.title")}
        okText={t("customerSync.start")}
        form={form}
        initialValues={options[0] ? { clientId: options[0].value } : {}}
        onSubmit={submit}
        onClose={() => setOpen(false)}
        submitTestId="customer-sync-submit"
        formTestId="customer-sync-dialog"
      >
        <Typography.Paragraph type="secondary">{t("customerSync.intro")}</Typography.Paragraph>
        {options.length === 0 ? (
          <Typography.Paragraph type="warning" data-testid="customer-sync-none">
            {t("customerSync.noSources")}
          </Typography.Paragraph>
        ) : null}
        <Form.Item name="clientId" label={t("customerSync.source")} rules={[{ required: true, message: t("customerSync.noSources") }]}>
          <Select options={options} data-testid="customer-sync-source" />
        </Form.Item>
      </FormDialog>
    </>
  );
}
