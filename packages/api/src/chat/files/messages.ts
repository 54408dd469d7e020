import { defineMessages } from "../../i18n/define";

/** Messages of files attached to chat messages and of public assets. */
export const chatFilesMessages = defineMessages({
  "thing.chat_file": { en: "File", "zh-CN": "文件" },
  "thing.public_asset": { en: "Image", "zh-CN": "图片" },
  chat_file_type_unsupported: {
    en: "File or image upload failed: chat takes JPEG and PNG images and txt, md, pdf and docx documents (the file's content decides, not its name)",
    "zh-CN": "文件或图片上传失败：对话仅支持 JPEG、PNG 图片及 txt、md、pdf、docx 文档（以文件内容判断，而非文件名）",
  },
  chat_image_too_large: { en: "File or image upload failed: images must be under {megabytes} MB", "zh-CN": "文件或图片上传失败：图片须小于 {megabytes} MB" },
  chat_document_too_large: {
    en: "File or image upload failed: documents must be under {megabytes} MB",
    "zh-CN": "文件或图片上传失败：文档须小于 {megabytes} MB",
  },
  chat_file_empty: { en: "File or image upload failed: the file is empty", "zh-CN": "文件或图片上传失败：文件为空" },
  chat_file_unreadable: {
    en: "The document cannot be read (damaged or encrypted); save it again and retry",
    "zh-CN": "无法读取该文档（文件损坏或已加密），请重新保存后再试",
  },
  chat_file_unpacks_too_large: {
    en: "The document unpacks to more than {megabytes} MB and is not read; save it smaller and retry",
    "zh-CN": "该文档解压后超过 {megabytes} MB，无法读取；请缩小后重试",
  },
  chat_file_no_text: { en: "The document has no text to read", "zh-CN": "该文档中没有可读取的文字" },
  chat_files_too_many: { en: "A message carries at most {max} files", "zh-CN": "一条消息最多附带 {max} 个文件" },
  chat_file_name_invalid: { en: "The file name is empty or too long", "zh-CN": "文件名为空或过长" },
  chat_model_images_unsupported: {
    en: "The model {model} does not read images: choose a model that does (e.g. GPT-4.1, Claude, Gemini), or send text and documents only",
    "zh-CN": "模型 {model} 无法识别图片：请选择支持图片的模型（如 GPT-4.1、Claude、Gemini），或只发送文字和文档",
  },
  chat_file_link_expired: { en: "This file link has expired or is not valid; open the conversation again", "zh-CN": "文件链接已过期或无效，请重新打开会话" },
  public_asset_type_unsupported: {
    en: "Image upload failed: only JPEG and PNG images under {megabytes} MB",
    "zh-CN": "图片上传失败：仅支持小于 {megabytes} MB 的 JPEG、PNG 图片",
  },
  chat_file_truncated_notice: {
    en: "[Only the first {percent}% of this file fits the model's context window; the rest was not read.]",
    "zh-CN": "[该文件仅前 {percent}% 能放入模型的上下文窗口，其余部分未被读取。]",
  },
  chat_files_reference_instructions: {
    en: "The person attached files to this question; their text is among the references below, each numbered [n] with the file's name. Answer questions about a file from its text and cite it as [n].",
    "zh-CN": "用户在本问题中附带了文件，其文字内容位于下方参考资料中，每条以 [n] 编号并注明文件名。回答与文件有关的问题时请依据其内容，并以 [n] 标注引用。",
  },
});
