import { Form, Select, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DATABASES, databaseEndpoints } from "../../lib/api/databases";
import { useSpaceQuery } from "../../lib/api/query";
import { PATHS } from "../../lib/paths";

/**
 * The app editor's bound databases (spec §3 App bound databases): a multi-select of the
 * space's databases, saved with the app as `databaseIds`. Lives inside the editor's form.
 */
export function DatabaseSettingsSection() {
  const { t } = useTranslation();
  const query = useSpaceQuery({
    key: [...DATABASES, "app-editor"],
    fetch: (signal) => databaseEndpoints.list({ silent: true, signal, dedupeKey: "databases-app-editor" }),
  });
  return (
    <Form.Item
      name="databaseIds"
      label={t("database.appSettings.bound")}
      extra={
        <>
          {query.isError ? `${t("database.appSettings.loadFailed")} · ` : ""}
          {t("database.appSettings.boundHint")} <Link to={PATHS.database}>{t("screens.database.title")}</Link>
        </>
      }
    >
      <Select
        mode="multiple"
        allowClear
        loading={query.isFetching}
        placeholder={t("database.appSettings.placeholder")}
        optionFilterProp="label"
        options={(query.data ?? []).map((database) => ({
          value: database.id,
          label: database.name,
          title: database.description,
        }))}
        optionRender={(option) => {
          const database = query.data?.find((item) => item.id === option.value);
          return (
            <span data-testid={`app-database-option-${String(option.label)}`}>
              {option.label} {database ? <Tag>{t(`database.types.${database.type}`)}</Tag> : null}
            </span>
          );
        }}
        data-testid="app-databases"
      />
    </Form.Item>
  );
}
