import type { FormInstance, FormRule } from "antd";
import { type ApiFailure, handledByRequestLayer } from "../../lib/api/request";
import { feedback } from "../../lib/feedback";
import { i18n } from "../../i18n";
import { formPathOf, type RuleResult } from "./app-rules";

/** An antd rule from one of the pure checks in app-rules.ts. */
export function ruleOf<Value>(check: (value: Value) => RuleResult): Exclude<FormRule, (...args: never[]) => unknown> {
  return {
    validator: async (_rule, value: Value) => {
      const key = check(value);
      if (key) throw new Error(i18n.t(key));
    },
  };
}

/**
 * Shows a refused save where it belongs: on the field the server names (spec §5 rules name
 * the offending field), else as a message. Answers whether a field took it.
 */
export function showServerError(form: FormInstance, error: ApiFailure, knownFields?: (path: (string | number)[]) => boolean): boolean {
  if (error.kind === "aborted" || error.kind === "unauthenticated") return false;
  const path = formPathOf(error.field);
  if (path && (!knownFields || knownFields(path))) {
    form.setFields([{ name: path, errors: [error.message] }]);
    form.scrollToField(path, { block: "center" });
    return true;
  }
  // Network and session failures were already reported by the request layer.
  if (error.kind === "http" && !handledByRequestLayer(error)) feedback.error(error.message || i18n.t("errors.generic"));
  return false;
}
