import { ArrowLeftOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, type FormInstance } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ApiResult } from "../../lib/api/request";
import { validValues } from "./form-helpers";
import type { KnowledgeFile } from "../../lib/api/knowledge";

/** The fields of an import by address (web page, Feishu document). */
export interface LinkImportValues {
  url: string;
  name?: string;
}

/**
 * Submitting an import by address: the trimmed address and optional name go to `importLink`;
 * a refusal naming `url` or `name` is shown under that field, any other as `serverError`; a
 * file the server could not read comes back as `failed`, any other goes to `onImported`.
 */
export function useLinkImport(
  form: FormInstance<LinkImportValues>,
  importLink: (body: LinkImportValues) => Promise<ApiResult<KnowledgeFile>>,
  onImported: (file: KnowledgeFile) => void,
) {
  const [importing, setImporting] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const [failed, setFailed] = useState<KnowledgeFile>();

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    setImporting(true);
    setServerError(undefined);
    setFailed(undefined);
    try {
      const name = values.name?.trim();
      const result = await importLink({ url: values.url.trim(), ...(name ? { name } : {}) });
      if (!result.ok) {
        if (result.error.kind === "http") {
          const field = result.error.field;
          if (field === "url" || field === "name") form.setFields([{ name: field, errors: [result.error.message] }]);
          else setServerError(result.error.message);
        }
        return;
      }
      if (result.data.status === "failed") setFailed(result.data);
      else onImported(result.data);
    } finally {
      setImporting(false);
    }
  };

  return { importing, serverError, failed, submit };
}

/** Props of {@link ImportStepFooter}. */
export interface ImportStepFooterProps {
  serverError?: string;
  /** A file the server took but could not read; offers the file list. */
  failed?: KnowledgeFile;
  /** Message key of the failed file's title; gets the file's `name`. */
  failedTitleKey: string;
  onShowFiles: () => void;
  onBack: () => void;
  submitIcon: ReactNode;
  submitLabel: string;
  submitting: boolean;
  submitDisabled?: boolean;
  onSubmit: () => void;
}

/** The end of an upload or import step: the server's refusal, a failed file, then back and submit. */
export function ImportStepFooter({
  serverError,
  failed,
  failedTitleKey,
  onShowFiles,
  onBack,
  submitIcon,
  submitLabel,
  submitting,
  submitDisabled,
  onSubmit,
}: ImportStepFooterProps) {
  const { t } = useTranslation();
  return (
    <>
      {serverError ? <Alert type="error" showIcon className="pl-kb-alert" title={serverError} data-testid="import-server-error" /> : null}
      {failed ? (
        <Alert
          type="error"
          showIcon
          className="pl-kb-alert"
          title={t(failedTitleKey, { name: failed.name })}
          description={failed.failureReason ?? undefined}
          action={
            <Button size="small" onClick={onShowFiles}>
              {t("knowledge.import.showFiles")}
            </Button>
          }
          data-testid="import-failed"
        />
      ) : null}
      <Flex justify="space-between" className="pl-kb-actions">
        <Button icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="import-back">
          {t("knowledge.import.back")}
        </Button>
        <Button type="primary" icon={submitIcon} disabled={submitDisabled} loading={submitting} onClick={onSubmit} data-testid="import-upload">
          {submitLabel}
        </Button>
      </Flex>
    </>
  );
}
