/** The upload chunk's strings (issue 24), English and Chinese; they load with that chunk only. */
export const uploadsEn = {
  uploading: "Uploading",
  remove: "Remove",
  fileType: "Only JPG, PNG, TXT, MD, PDF and DOCX files can be sent.",
  fileSize: "Too large: images up to 5 MB, documents up to 15 MB.",
  tooManyFiles: "At most 10 files per message.",
};

/** Chinese upload strings; a test keeps their keys equal to {@link uploadsEn}'s. */
export const uploadsZh: typeof uploadsEn = {
  uploading: "上传中",
  remove: "移除",
  fileType: "仅支持发送 JPG、PNG、TXT、MD、PDF 和 DOCX 文件。",
  fileSize: "文件过大：图片最大 5 MB，文档最大 15 MB。",
  tooManyFiles: "每条消息最多 10 个文件。",
};

/** The upload strings for a visitor language such as `zh-CN`; English by default. */
export const uploadStringsFor = (language: string | undefined): typeof uploadsEn => (/^zh/i.test(language ?? "") ? uploadsZh : uploadsEn);
