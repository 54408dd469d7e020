import { defineMessages } from "../i18n/define";

/** Messages of portable files: export and import of apps, workflows, plugins and knowledge bases. */
export const portableMessages = defineMessages({
  portable_not_a_file: {
    en: "This is not a Parley portable file: it has no `parley` format version at the top",
    "zh-CN": "这不是 Parley 可移植文件：文件开头缺少 `parley` 格式版本",
  },
  portable_version_invalid: { en: "The format version {version} is not valid", "zh-CN": "格式版本 {version} 无效" },
  portable_version_newer: {
    en: "This file was written in format version {version} by a newer Parley; this instance reads versions up to {supported}. Upgrade Parley to import it",
    "zh-CN": "此文件由较新的 Parley 以格式版本 {version} 写出；本实例最高只能读取版本 {supported}。请升级 Parley 后再导入",
  },
  portable_v0_kind_unknown: { en: 'The object kind "{kind}" is unknown', "zh-CN": "未知的对象类型“{kind}”" },
  portable_yaml_invalid: { en: "The file is not valid YAML: {reason}", "zh-CN": "文件不是有效的 YAML：{reason}" },
  portable_not_utf8: { en: "The file is not UTF-8 text", "zh-CN": "文件不是 UTF-8 文本" },
  portable_file_too_large: { en: "The file is larger than {limit} bytes", "zh-CN": "文件超过 {limit} 字节" },
  portable_zip_invalid: { en: "The zip archive cannot be read", "zh-CN": "无法读取该 zip 压缩包" },
  portable_zip_entries: { en: "The zip archive holds more than {limit} entries", "zh-CN": "zip 压缩包中的条目超过 {limit} 个" },
  portable_zip_too_large: {
    en: "The zip archive expands to more than {limit} bytes; it was refused without being unpacked",
    "zh-CN": "zip 压缩包解压后超过 {limit} 字节，已拒绝且未完整解压",
  },
  portable_zip_entry_unknown: {
    en: 'The zip archive holds an unexpected entry "{name}" (only parley.yaml and knowledge/*.json)',
    "zh-CN": "zip 压缩包包含意外的条目“{name}”（只允许 parley.yaml 和 knowledge/*.json）",
  },
  portable_zip_no_document: { en: "The zip archive has no {name}", "zh-CN": "zip 压缩包中没有 {name}" },
  portable_too_many_objects: {
    en: "The file holds {count} apps, workflows, plugins and knowledge bases; one import takes at most {limit}",
    "zh-CN": "文件包含 {count} 个应用、工作流、插件和知识库；一次导入最多 {limit} 个",
  },
  portable_too_many_files: { en: "The bundle holds more than {limit} knowledge files", "zh-CN": "包中的知识文件超过 {limit} 个" },
  portable_field_invalid: { en: "{path} is not valid: {reason}", "zh-CN": "{path} 无效：{reason}" },
  portable_ref_duplicate: { en: 'The reference "{ref}" names two objects', "zh-CN": "引用“{ref}”指向了两个对象" },
  portable_reference_unknown: {
    en: '{field} refers to "{reference}", which is not an object of this file (references to other spaces are not imported)',
    "zh-CN": "{field} 引用了“{reference}”，它不是本文件中的对象（不会导入对其他空间的引用）",
  },
  portable_secret_duplicate: { en: "The secret {name} is declared twice", "zh-CN": "密钥 {name} 被声明了两次" },
  portable_secret_undeclared: { en: "{field} uses the secret {name}, which the file does not declare", "zh-CN": "{field} 使用了文件未声明的密钥 {name}" },
  portable_secret_missing: { en: "Give a value for the secret {name}", "zh-CN": "请填写密钥 {name} 的值" },
  portable_placeholder_invalid: { en: "{field} holds a malformed secret placeholder", "zh-CN": "{field} 中的密钥占位符格式错误" },
  portable_contents_missing: { en: "The bundle has no {path}", "zh-CN": "包中没有 {path}" },
  portable_contents_invalid: { en: "{path} in the bundle is not valid knowledge contents", "zh-CN": "包中的 {path} 不是有效的知识内容" },
  portable_nothing_to_export: { en: "Choose what to export, or the whole space", "zh-CN": "请选择要导出的内容，或导出整个空间" },
});
