import { DeleteOutlined, PlusOutlined, SubnodeOutlined } from "@ant-design/icons";
import { Button, Checkbox, Input, Select, Tooltip, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  blankParameter,
  findNameProblems,
  hasChildren,
  PARAMETER_LOCATIONS,
  PARAMETER_TYPES,
  removeRow,
  updateRow,
  type EditableParameter,
  type ParameterLocation,
  type ParameterType,
} from "./parameters";
import "./parameter-editor.css";

/** A message for one field of one row, e.g. from the server's `requestParams.0.children.1.name`. */
export interface RowError {
  field: string;
  message: string;
}

/** Props of {@link ParameterEditor}. */
export interface ParameterEditorProps {
  value: EditableParameter[];
  onChange: (next: EditableParameter[]) => void;
  /** The tree's API key, used in error paths: `requestParams` or `responseParams`. */
  base: "requestParams" | "responseParams";
  /** Offer the location column (request parameters only). */
  showLocation?: boolean;
  /** Show 'name required' on empty rows too (after a save or next attempt). */
  showRequired?: boolean;
  /** Errors the server named, by row key. */
  rowErrors?: Record<string, RowError>;
  /** Prefix of the data-testids, e.g. `request-param`. */
  testIdPrefix: string;
  readOnly?: boolean;
}

/**
 * Edits a plugin's request or response parameters: name, type, description, required,
 * default, location and nested sub-parameters for objects and arrays. Enforces spec §5
 * (English letters and underscore; no duplicate among siblings) as the person types.
 */
export function ParameterEditor({
  value,
  onChange,
  base,
  showLocation = false,
  showRequired = false,
  rowErrors = {},
  testIdPrefix,
  readOnly = false,
}: ParameterEditorProps) {
  const { t } = useTranslation();
  const problems = useMemo(() => {
    const byRow: Record<string, string> = {};
    for (const problem of findNameProblems(value, base)) {
      if (problem.problem === "required" && !showRequired) continue;
      byRow[problem.rowKey] = t(`paramEditor.errors.${problem.problem}`, { name: problem.name });
    }
    return byRow;
  }, [value, base, showRequired, t]);

  const change = (key: string, patch: Partial<EditableParameter>) => onChange(updateRow(value, key, (row) => ({ ...row, ...patch })));

  const renderRows = (rows: EditableParameter[], path: number[], depth: number) =>
    rows.map((row, index) => {
      const at = [...path, index];
      const id = at.join(".");
      const serverError = rowErrors[row.key];
      const nameError = problems[row.key] ?? (serverError?.field === "name" ? serverError.message : undefined);
      const defaultError = serverError?.field === "default" ? serverError.message : undefined;
      const otherError = serverError && serverError.field !== "name" && serverError.field !== "default" ? serverError.message : undefined;
      const canNest = hasChildren(row.type);
      return (
        <div key={row.key} className="pl-params__group" data-testid={`${testIdPrefix}-row-${id}`}>
          <div className={`pl-params__row${showLocation ? " pl-params__row--location" : ""}`} style={{ paddingInlineStart: depth * 24 }}>
            <div>
              <Input
                value={row.name}
                status={nameError ? "error" : undefined}
                placeholder={t("paramEditor.namePlaceholder")}
                onChange={(event) => change(row.key, { name: event.target.value })}
                disabled={readOnly}
                aria-label={t("paramEditor.columns.name")}
                data-testid={`${testIdPrefix}-name-${id}`}
              />
              {nameError ? (
                <Typography.Text type="danger" className="pl-params__error" data-testid={`${testIdPrefix}-error-${id}`}>
                  {nameError}
                </Typography.Text>
              ) : null}
            </div>
            <Select<ParameterType>
              value={row.type}
              onChange={(type) => change(row.key, { type, children: hasChildren(type) ? row.children : [] })}
              options={PARAMETER_TYPES.map((type) => ({ value: type, label: t(`paramEditor.types.${type}`) }))}
              disabled={readOnly}
              aria-label={t("paramEditor.columns.type")}
              data-testid={`${testIdPrefix}-type-${id}`}
            />
            <Input
              value={row.description}
              placeholder={t("paramEditor.descriptionPlaceholder")}
              onChange={(event) => change(row.key, { description: event.target.value })}
              disabled={readOnly}
              aria-label={t("paramEditor.columns.description")}
              data-testid={`${testIdPrefix}-description-${id}`}
            />
            <Checkbox
              checked={row.required}
              onChange={(event) => change(row.key, { required: event.target.checked })}
              disabled={readOnly}
              aria-label={t("paramEditor.columns.required")}
              data-testid={`${testIdPrefix}-required-${id}`}
            />
            <div>
              <Input
                value={row.defaultText}
                status={defaultError ? "error" : undefined}
                placeholder={canNest ? t("paramEditor.defaultJson") : t("paramEditor.defaultPlaceholder")}
                onChange={(event) => change(row.key, { defaultText: event.target.value })}
                disabled={readOnly}
                aria-label={t("paramEditor.columns.default")}
                data-testid={`${testIdPrefix}-default-${id}`}
              />
              {defaultError ? (
                <Typography.Text type="danger" className="pl-params__error">
                  {defaultError}
                </Typography.Text>
              ) : null}
            </div>
            {showLocation ? (
              <Select<ParameterLocation | "">
                value={row.location}
                onChange={(location) => change(row.key, { location })}
                options={[
                  { value: "", label: t("paramEditor.locations.auto") },
                  ...PARAMETER_LOCATIONS.map((location) => ({ value: location, label: t(`paramEditor.locations.${location}`) })),
                ]}
                disabled={readOnly || depth > 0}
                aria-label={t("paramEditor.columns.location")}
                data-testid={`${testIdPrefix}-location-${id}`}
              />
            ) : null}
            <div className="pl-params__actions">
              {canNest && !readOnly ? (
                <Tooltip title={t("paramEditor.addChild")}>
                  <Button
                    type="text"
                    icon={<SubnodeOutlined />}
                    aria-label={t("paramEditor.addChild")}
                    onClick={() => change(row.key, { children: [...row.children, blankParameter()] })}
                    data-testid={`${testIdPrefix}-add-child-${id}`}
                  />
                </Tooltip>
              ) : null}
              {!readOnly ? (
                <Tooltip title={t("common.delete")}>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t("common.delete")}
                    onClick={() => onChange(removeRow(value, row.key))}
                    data-testid={`${testIdPrefix}-delete-${id}`}
                  />
                </Tooltip>
              ) : null}
            </div>
          </div>
          {otherError ? (
            <Typography.Text type="danger" className="pl-params__error" style={{ paddingInlineStart: depth * 24 }}>
              {otherError}
            </Typography.Text>
          ) : null}
          {canNest && row.children.length > 0 ? renderRows(row.children, at, depth + 1) : null}
        </div>
      );
    });

  return (
    <div className="pl-params" data-testid={testIdPrefix}>
      <div className={`pl-params__row pl-params__head${showLocation ? " pl-params__row--location" : ""}`}>
        <span>{t("paramEditor.columns.name")}</span>
        <span>{t("paramEditor.columns.type")}</span>
        <span>{t("paramEditor.columns.description")}</span>
        <span>{t("paramEditor.columns.required")}</span>
        <span>{t("paramEditor.columns.default")}</span>
        {showLocation ? <span>{t("paramEditor.columns.location")}</span> : null}
        <span />
      </div>
      {value.length === 0 ? (
        <Typography.Text type="secondary" className="pl-params__empty">
          {t("paramEditor.empty")}
        </Typography.Text>
      ) : (
        renderRows(value, [], 0)
      )}
      {!readOnly ? (
        <Button type="dashed" block icon={<PlusOutlined />} onClick={() => onChange([...value, blankParameter()])} data-testid={`${testIdPrefix}-add`}>
          {t("paramEditor.add")}
        </Button>
      ) : null}
      <Typography.Text type="secondary" className="pl-params__hint">
        {t("paramEditor.rule")}
      </Typography.Text>
    </div>
  );
}
