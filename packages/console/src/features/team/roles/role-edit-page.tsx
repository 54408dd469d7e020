import "./roles.css";
import { InfoCircleOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Checkbox, Flex, Form, Radio, Result, Select, Space, Steps, Table, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { PageHeader } from "../../../components/page-header";
import { PageLoader } from "../../../components/page-loader";
import { feedback } from "../../../lib/feedback";
import { invalidateSpace, useSpaceQuery } from "../../../lib/api/query";
import {
  type DataRange,
  type FunctionResource,
  ROLE_DATA,
  ROLE_FUNCTIONS,
  ROLES,
  type Role,
  type RoleDataResources,
  rolesEndpoints,
} from "../../../lib/api/roles";
import { PATHS } from "../../../lib/paths";
import { toggleGrant } from "./grants";

type Scope = DataRange["scope"];

/**
 * The role editor (spec §3, /console/teamSpace/roleEdit?roleId=…): step 1 picks the menus the
 * role may view or edit, step 2 the data it reaches. Saving needs a data range (spec §5); system
 * roles open read-only.
 */
export function RoleEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const roleId = params.get("roleId") ?? "";
  const roles = useSpaceQuery({ key: ROLES, fetch: (signal) => rolesEndpoints.list({ signal }) });
  const functions = useSpaceQuery({ key: ROLE_FUNCTIONS, fetch: (signal) => rolesEndpoints.functions({ signal }), staleTime: Infinity });
  const data = useSpaceQuery({ key: ROLE_DATA, fetch: (signal) => rolesEndpoints.data({ signal }) });
  const role = roles.data?.find((item) => item.id === roleId);
  const back = () => navigate(PATHS.teamSpace);

  if (roles.isPending || functions.isPending) return <PageLoader />;
  if (!role) {
    return (
      <Result
        status="404"
        title={t("teamRoles.editor.notFound")}
        extra={
          <Button type="primary" onClick={back}>
            {t("teamRoles.editor.back")}
          </Button>
        }
      />
    );
  }
  return <RoleEditor key={role.id} role={role} functions={functions.data ?? []} data={data.data} onDone={back} />;
}

/** The two steps of one role, started from what the role holds. */
function RoleEditor({ role, functions, data, onDone }: { role: Role; functions: FunctionResource[]; data: RoleDataResources | undefined; onDone: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [grants, setGrants] = useState<Set<string>>(() => new Set(role.grants));
  const [scope, setScope] = useState<Scope | undefined>(role.dataRange?.scope);
  const [appIds, setAppIds] = useState<string[]>(role.dataRange?.appIds ?? []);
  const [knowledgeBaseIds, setKnowledgeBaseIds] = useState<string[]>(role.dataRange?.knowledgeBaseIds ?? []);
  const [clientIds, setClientIds] = useState<string[]>(role.dataRange?.clientIds ?? []);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const readOnly = role.system;
  const rows = functions;
  const back = onDone;

  const save = async () => {
    setError(undefined);
    if (!scope) {
      setError(t("teamRoles.editor.rangeRequired"));
      return;
    }
    if (scope === "chosen" && appIds.length + knowledgeBaseIds.length + clientIds.length === 0) {
      setError(t("teamRoles.editor.chosenEmpty"));
      return;
    }
    setSaving(true);
    try {
      const granted = await rolesEndpoints.setGrants(role.id, [...grants]);
      if (!granted.ok) {
        setError(granted.error.message);
        setStep(0);
        return;
      }
      const ranged = await rolesEndpoints.setDataRange(role.id, scope === "chosen" ? { scope, appIds, knowledgeBaseIds, clientIds } : { scope });
      if (!ranged.ok) {
        setError(ranged.error.message);
        return;
      }
      await invalidateSpace(ROLES);
      feedback.success(t("teamRoles.editor.saved", { name: role.name }));
      back();
    } finally {
      setSaving(false);
    }
  };

  const operationsOf = (resource: FunctionResource, level: "view" | "edit") => resource.levels.find((item) => item.level === level)?.operations ?? [];
  const levelBox = (resource: FunctionResource, level: "view" | "edit") => {
    const grant = `${resource.resource}.${level}`;
    const operations = operationsOf(resource, level);
    return (
      <Flex gap={4} align="center">
        <Checkbox
          checked={grants.has(grant)}
          disabled={readOnly}
          onChange={(event) => setGrants((current) => toggleGrant(current, resource.resource, level, event.target.checked))}
          data-testid={`grant-${grant}`}
        >
          {t(`teamRoles.editor.${level}`)}
        </Checkbox>
        <Tooltip
          title={
            operations.length > 0 ? (
              <div className="pl-role-operations">
                {operations.map((operation) => (
                  <div key={operation}>
                    <code>{operation}</code>
                  </div>
                ))}
              </div>
            ) : (
              t("teamRoles.editor.noOperations")
            )
          }
        >
          <InfoCircleOutlined aria-label={t("teamRoles.editor.operations")} />
        </Tooltip>
      </Flex>
    );
  };

  return (
    <div className="pl-role-edit" data-testid="role-edit-page">
      <PageHeader
        title={t("teamRoles.editor.title", { name: role.name })}
        subtitle={role.description || undefined}
        breadcrumb={[{ label: t("menu.team"), to: PATHS.teamSpace }, { label: role.name }]}
      />
      {readOnly ? (
        <Alert type="info" showIcon message={t("teamRoles.editor.systemReadOnly")} className="pl-role-edit__notice" data-testid="role-readonly" />
      ) : null}
      <Card>
        <Steps
          current={step}
          onChange={setStep}
          items={[
            { title: t("teamRoles.editor.step1"), description: t("teamRoles.editor.step1Hint") },
            { title: t("teamRoles.editor.step2"), description: t("teamRoles.editor.step2Hint") },
          ]}
        />
        <div className="pl-role-edit__body">
          {step === 0 ? (
            <Table<FunctionResource>
              rowKey="resource"
              dataSource={rows}
              pagination={false}
              size="middle"
              data-testid="role-functions"
              columns={[
                { title: t("teamRoles.editor.menu"), dataIndex: "name", render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
                { title: t("teamRoles.editor.view"), key: "view", width: 180, render: (_, resource) => levelBox(resource, "view") },
                { title: t("teamRoles.editor.edit"), key: "edit", width: 180, render: (_, resource) => levelBox(resource, "edit") },
              ]}
            />
          ) : (
            <Form layout="vertical" disabled={readOnly} data-testid="role-range">
              <Form.Item label={t("teamRoles.editor.scope")} required>
                <Radio.Group value={scope} onChange={(event) => setScope(event.target.value as Scope)}>
                  <Space direction="vertical">
                    <Radio value="all" data-testid="range-all">
                      {t("teamRoles.editor.scopeAll")}
                    </Radio>
                    <Radio value="own" data-testid="range-own">
                      {t("teamRoles.editor.scopeOwn")}
                    </Radio>
                    <Radio value="chosen" data-testid="range-chosen">
                      {t("teamRoles.editor.scopeChosen")}
                    </Radio>
                  </Space>
                </Radio.Group>
              </Form.Item>
              {scope === "chosen" ? (
                <>
                  <Form.Item label={t("teamRoles.editor.apps")}>
                    <Select
                      mode="multiple"
                      value={appIds}
                      onChange={setAppIds}
                      optionFilterProp="label"
                      options={(data?.apps ?? []).map((app) => ({ value: app.id, label: app.name }))}
                      data-testid="range-apps"
                    />
                  </Form.Item>
                  <Form.Item label={t("teamRoles.editor.knowledgeBases")}>
                    <Select
                      mode="multiple"
                      value={knowledgeBaseIds}
                      onChange={setKnowledgeBaseIds}
                      optionFilterProp="label"
                      options={(data?.knowledgeBases ?? []).map((base) => ({ value: base.id, label: base.name }))}
                      data-testid="range-knowledge"
                    />
                  </Form.Item>
                  <Form.Item label={t("teamRoles.editor.clients")}>
                    <Select
                      mode="multiple"
                      value={clientIds}
                      onChange={setClientIds}
                      optionFilterProp="label"
                      options={(data?.clients ?? []).map((item) => ({ value: item.id, label: `${item.name} (${item.kind})` }))}
                      data-testid="range-clients"
                    />
                  </Form.Item>
                </>
              ) : null}
              <Typography.Text type="secondary">{t("teamRoles.editor.ownAlways")}</Typography.Text>
            </Form>
          )}
        </div>
        {error ? <Alert type="error" showIcon message={error} className="pl-role-edit__notice" data-testid="role-edit-error" /> : null}
        <Flex justify="flex-end" gap={8}>
          <Button onClick={back}>{t("teamRoles.editor.back")}</Button>
          {step === 0 ? (
            <Button type="primary" onClick={() => setStep(1)} data-testid="role-next">
              {t("teamRoles.editor.next")}
            </Button>
          ) : (
            <>
              <Button onClick={() => setStep(0)}>{t("teamRoles.editor.previous")}</Button>
              {readOnly ? null : (
                <Button type="primary" loading={saving} onClick={() => void save()} data-testid="role-save">
                  {t("teamRoles.editor.save")}
                </Button>
              )}
            </>
          )}
        </Flex>
      </Card>
    </div>
  );
}
