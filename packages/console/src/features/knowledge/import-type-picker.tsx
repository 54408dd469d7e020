import { CloudDownloadOutlined, FileTextOutlined, GlobalOutlined, QuestionCircleOutlined, TableOutlined } from "@ant-design/icons";
import { Flex, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import "./knowledge.css";

/** What can be imported into a knowledge base (spec §4: select type first). */
export const IMPORT_TYPES = ["document", "qa", "table", "website", "feishu"] as const;
/** One import type. */
export type ImportType = (typeof IMPORT_TYPES)[number];

const ICONS: Record<ImportType, ReactNode> = {
  document: <FileTextOutlined />,
  qa: <QuestionCircleOutlined />,
  table: <TableOutlined />,
  website: <GlobalOutlined />,
  feishu: <CloudDownloadOutlined />,
};

/** Props of {@link ImportTypePicker}. */
export interface ImportTypePickerProps {
  value?: ImportType;
  onChange: (type: ImportType) => void;
  /** Types the server can import now; the others are shown as coming soon. */
  available: readonly ImportType[];
}

/** The first import step: one card per type with what it accepts; unavailable types are disabled. */
export function ImportTypePicker({ value, onChange, available }: ImportTypePickerProps) {
  const { t } = useTranslation();
  return (
    <div className="pl-kb-types" role="radiogroup" aria-label={t("knowledge.import.steps.type")}>
      {IMPORT_TYPES.map((type) => {
        const enabled = available.includes(type);
        const selected = value === type;
        return (
          <button
            key={type}
            type="button"
            role="radio"
            aria-checked={selected}
            disabled={!enabled}
            className={`pl-kb-type${selected ? " pl-kb-type--selected" : ""}`}
            onClick={() => onChange(type)}
            data-testid={`import-type-${type}`}
          >
            <Flex gap={12} align="flex-start">
              <span className="pl-kb-type__icon">{ICONS[type]}</span>
              <span className="pl-kb-type__text">
                <Flex gap={6} align="center" wrap>
                  <Typography.Text strong>{t(`knowledge.import.types.${type}.title`)}</Typography.Text>
                  {enabled ? null : <Tag>{t("knowledge.import.comingSoon")}</Tag>}
                </Flex>
                <Typography.Text type="secondary" className="pl-kb-type__description">
                  {t(`knowledge.import.types.${type}.description`)}
                </Typography.Text>
              </span>
            </Flex>
          </button>
        );
      })}
    </div>
  );
}
