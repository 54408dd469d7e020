import { Col, Form, Input, InputNumber, Row } from "antd";
import type { FormInstance } from "antd";
import { useTranslation } from "react-i18next";
import { type ApiFailure, handledByRequestLayer } from "../../lib/api/request";
import { feedback } from "../../lib/feedback";
import { i18n } from "../../i18n";
import { checkChunkOverlap, checkChunkTokens, KNOWLEDGE_LIMITS, type RuleResult } from "./knowledge-rules";

/** The editable fields of a knowledge base. */
export interface KnowledgeBaseValues {
  name: string;
  description: string;
  chunkTokens: number;
  chunkOverlap: number;
}

/** An antd rule from a pure check that may read the other fields. */
const rule =
  (check: (value: unknown, getField: (name: keyof KnowledgeBaseValues) => unknown) => RuleResult) =>
  ({ getFieldValue }: { getFieldValue: (name: keyof KnowledgeBaseValues) => unknown }) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const key = check(value, getFieldValue);
      if (key) throw new Error(i18n.t(key, { ...KNOWLEDGE_LIMITS }));
    },
  });

const FIELDS = new Set(["name", "description", "chunkTokens", "chunkOverlap"]);

/** Shows a refused save on the field the server names, else as a message; answers whether a field took it. */
export function showKnowledgeBaseError(form: FormInstance<KnowledgeBaseValues>, error: ApiFailure): boolean {
  if (error.kind === "aborted" || error.kind === "unauthenticated") return false;
  if (error.field && FIELDS.has(error.field)) {
    form.setFields([{ name: error.field as keyof KnowledgeBaseValues, errors: [error.message] }]);
    return true;
  }
  if (error.kind === "http" && !handledByRequestLayer(error)) feedback.error(error.message || i18n.t("errors.generic"));
  return false;
}

/** What create and update send: the form's values, name and description trimmed. */
export function knowledgeBaseBody(values: KnowledgeBaseValues): KnowledgeBaseValues {
  return {
    name: values.name.trim(),
    description: (values.description ?? "").trim(),
    chunkTokens: values.chunkTokens,
    chunkOverlap: values.chunkOverlap,
  };
}

/** The name, description and chunking fields shared by create and settings (spec §3 Knowledge base). */
export function KnowledgeBaseFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="name"
        label={t("knowledge.form.name")}
        rules={[
          { required: true, whitespace: true, message: t("knowledge.rules.nameRequired") },
          { max: KNOWLEDGE_LIMITS.baseNameMax, message: t("knowledge.rules.nameTooLong", { max: KNOWLEDGE_LIMITS.baseNameMax }) },
        ]}
      >
        <Input placeholder={t("knowledge.form.namePlaceholder")} maxLength={KNOWLEDGE_LIMITS.baseNameMax} data-testid="kb-name" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t("knowledge.form.description")}
        rules={[{ max: KNOWLEDGE_LIMITS.descriptionMax, message: t("knowledge.rules.descriptionTooLong", { max: KNOWLEDGE_LIMITS.descriptionMax }) }]}
      >
        <Input.TextArea
          rows={3}
          showCount
          maxLength={KNOWLEDGE_LIMITS.descriptionMax}
          placeholder={t("knowledge.form.descriptionPlaceholder")}
          data-testid="kb-description"
        />
      </Form.Item>
      {/* No min/max on the numbers: out-of-range input gets the rule's message instead of a silent clamp. */}
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="chunkTokens"
            label={t("knowledge.form.chunkTokens")}
            tooltip={t("knowledge.form.chunkTokensHelp")}
            rules={[rule((value) => checkChunkTokens(value as number | null))]}
          >
            <InputNumber className="pl-kb-number" step={50} precision={0} data-testid="kb-chunk-tokens" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="chunkOverlap"
            label={t("knowledge.form.chunkOverlap")}
            tooltip={t("knowledge.form.chunkOverlapHelp")}
            dependencies={["chunkTokens"]}
            rules={[rule((value, getField) => checkChunkOverlap(value as number | null, getField("chunkTokens") as number | null))]}
          >
            <InputNumber className="pl-kb-number" step={10} precision={0} data-testid="kb-chunk-overlap" />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
