import { defineMessages } from "../../i18n/define";

/**
 * Refusals of the statement checker (`check.ts`), one per `SqlRefusalCode`, registered in the
 * i18n catalogue as the `sqlCheck` area.
 */
export const sqlCheckMessages = defineMessages({
  sql_empty: { en: "The statement is empty", "zh-CN": "SQL 语句为空" },
  sql_too_long: { en: "The statement is longer than {max} characters", "zh-CN": "SQL 语句超过 {max} 个字符" },
  sql_multiple_statements: { en: "Only one statement can run at a time ({detail})", "zh-CN": "每次只能执行一条语句（{detail}）" },
  sql_comment: { en: "Comments are not accepted in statements ({detail})", "zh-CN": "语句中不能包含注释（{detail}）" },
  sql_ambiguous_syntax: {
    en: "The statement uses syntax that is not accepted: {detail}",
    "zh-CN": "语句使用了不被接受的写法：{detail}",
  },
  sql_parse_failed: { en: "The statement could not be read as {dialect} SQL: {detail}", "zh-CN": "无法按 {dialect} 语法解析该语句：{detail}" },
  sql_kind_not_allowed: {
    en: "{kind} statements are not allowed; only SELECT, INSERT, UPDATE and DELETE can run",
    "zh-CN": "不允许执行 {kind} 语句，只能执行 SELECT、INSERT、UPDATE 和 DELETE",
  },
  sql_permission_denied: {
    en: "This database does not permit {permission} ({kind} statement)",
    "zh-CN": "该数据库未开放“{permission}”权限（{kind} 语句）",
  },
  sql_table_not_allowed: { en: 'The table "{table}" is not one of the tables chosen for this database', "zh-CN": "表“{table}”不在该数据库选定的表中" },
  sql_qualified_name: {
    en: 'Names qualified with a database or schema ("{name}") are not accepted',
    "zh-CN": "不接受带数据库或模式前缀的名称（“{name}”）",
  },
  sql_function_not_allowed: { en: "The function {name} is not allowed", "zh-CN": "不允许使用函数 {name}" },
  sql_clause_not_allowed: { en: "{clause} is not allowed in statements", "zh-CN": "语句中不允许使用 {clause}" },
  sql_write_without_where: {
    en: "{kind} without a WHERE condition would change every row; add a condition",
    "zh-CN": "不带 WHERE 条件的 {kind} 会修改所有行，请添加条件",
  },
  sql_unsupported_construct: {
    en: "The statement uses a construct the checker cannot verify ({detail})",
    "zh-CN": "语句中包含无法校验的写法（{detail}）",
  },
});

/** Why a statement was refused. */
export type SqlRefusalCode = keyof typeof sqlCheckMessages;
