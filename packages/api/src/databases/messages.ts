import { defineMessages } from "../i18n/define";

/** Messages of databases, their tables, fields, rows, imports and exports. */
export const databasesMessages = defineMessages({
  "thing.database": { en: "Database", "zh-CN": "数据库" },
  "thing.database_table": { en: "Table", "zh-CN": "数据表" },
  "thing.database_field": { en: "Field", "zh-CN": "字段" },
  "thing.database_row": { en: "Row", "zh-CN": "数据行" },
  database_name_taken: { en: 'A database named "{name}" already exists', "zh-CN": "已有名为“{name}”的数据库" },
  database_permission_required: {
    en: "Choose at least one permission: query, add, edit or delete",
    "zh-CN": "请至少选择一项权限：查询、新增、编辑或删除",
  },
  database_remote_field_required: { en: "{field} is required for a remote database", "zh-CN": "远程数据库必须填写 {field}" },
  database_bound_to_apps: {
    en: "The database is used by {count} apps ({names}); remove it from their database settings first",
    "zh-CN": "该数据库正被 {count} 个应用使用（{names}），请先在这些应用的数据库设置中移除",
  },
  database_not_builtin: { en: "This works on built-in databases only", "zh-CN": "该操作仅适用于内置数据库" },
  database_table_name_taken: { en: 'The database already has a table named "{name}"', "zh-CN": "该数据库中已有名为“{name}”的数据表" },
  database_name_invalid: {
    en: "{field}: use letters, digits, underscore or Chinese characters, starting with a letter, underscore or Chinese character (at most {max})",
    "zh-CN": "{field}：只能使用字母、数字、下划线或中文，且不能以数字开头（最多 {max} 个字符）",
  },
  database_field_duplicate: { en: 'The field name "{name}" appears more than once', "zh-CN": "字段名“{name}”重复" },
  database_field_taken: { en: 'The table already has a field named "{name}"', "zh-CN": "该数据表中已有名为“{name}”的字段" },
  database_fields_too_many: { en: "A table has at most {max} fields", "zh-CN": "一张数据表最多 {max} 个字段" },
  database_field_last: { en: "A table keeps at least one field; delete the table instead", "zh-CN": "数据表至少保留一个字段，如需删除请删除整张表" },
  database_value_integer: { en: '{field}: "{value}" is not an integer', "zh-CN": "{field}：“{value}”不是整数" },
  database_value_decimal: { en: '{field}: "{value}" is not a number', "zh-CN": "{field}：“{value}”不是数字" },
  database_value_datetime: {
    en: '{field}: "{value}" is not a date or time (use 2024-05-01 or 2024-05-01 13:45:00)',
    "zh-CN": "{field}：“{value}”不是日期或时间（请使用 2024-05-01 或 2024-05-01 13:45:00）",
  },
  database_value_too_long: {
    en: "{field}: {length} characters is more than {max}; text over {max} characters goes in a long text field",
    "zh-CN": "{field}：{length} 个字符超过了 {max}，超过 {max} 个字符的内容请使用长文本字段",
  },
  database_value_longtext_max: { en: "{field}: at most {max} characters", "zh-CN": "{field}：最多 {max} 个字符" },
  database_value_unknown_field: { en: 'The table has no field "{field}"', "zh-CN": "数据表中没有字段“{field}”" },
  database_values_empty: { en: "Give a value for at least one field", "zh-CN": "请至少为一个字段填写值" },
  database_filter_unknown_field: { en: 'Filter: the table has no field "{field}"', "zh-CN": "筛选条件：数据表中没有字段“{field}”" },
  database_import_too_large: {
    en: "The file is {size} MB; import takes files of at most {max} MB (fast import takes larger ones)",
    "zh-CN": "文件大小为 {size} MB，导入最多支持 {max} MB 的文件（更大的文件请使用快速导入）",
  },
  database_fast_import_too_large: {
    en: "The file is {size} MB; fast import takes files of at most {max} MB",
    "zh-CN": "文件大小为 {size} MB，快速导入最多支持 {max} MB 的文件",
  },
  database_import_too_many_rows: { en: "The file has more than {max} rows; use fast import", "zh-CN": "文件超过 {max} 行，请使用快速导入" },
  database_import_no_rows: { en: "The file has a header but no rows", "zh-CN": "文件只有表头，没有数据行" },
  database_import_mapping_column: { en: 'Column matching: the file has no column "{column}"', "zh-CN": "列匹配：文件中没有“{column}”列" },
  database_import_mapping_empty: { en: "Match at least one column of the file to a field", "zh-CN": "请至少将文件的一列匹配到字段" },
  database_import_gbk: {
    en: "The file was not UTF-8; it was read as GBK (GB18030) Chinese text",
    "zh-CN": "文件不是 UTF-8 编码，已按 GBK（GB18030）中文编码读取",
  },
  database_statement_timeout: { en: "The statement ran longer than {ms} ms and was stopped", "zh-CN": "语句执行超过 {ms} 毫秒，已停止" },
  database_not_bound: { en: "No such database is bound", "zh-CN": "没有绑定该数据库" },
  database_statement_failed: { en: "The statement failed: {reason}", "zh-CN": "语句执行失败：{reason}" },
});
