import type { FormInstance } from "antd";
import { i18n } from "../../i18n";
import { checkFileName, KNOWLEDGE_LIMITS, type RuleResult } from "./knowledge-rules";

/**
 * The form's values once every rule passes, or undefined when one refuses (antd already shows
 * why under the field).
 */
export async function validValues<Values>(form: FormInstance<Values>): Promise<Values | undefined> {
  try {
    return await form.validateFields();
  } catch {
    return undefined;
  }
}

/**
 * A pure check from knowledge-rules as an antd rule: the message key it answers is translated
 * with `params`. `optional` lets an empty value through (the server picks one).
 */
export function checkRule(check: (value: string | undefined) => RuleResult, params?: Record<string, unknown>, optional = false) {
  return {
    validator: async (_rule: unknown, value?: string) => {
      if (optional && !value?.trim()) return;
      const key = check(value);
      if (key) throw new Error(i18n.t(key, params));
    },
  };
}

/** The file-name rule; `optional` lets an empty name through (the server picks one). */
export function fileNameRule(optional = false) {
  return checkRule(checkFileName, { max: KNOWLEDGE_LIMITS.fileNameMax }, optional);
}
