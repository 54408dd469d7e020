import { defineMessages } from "../i18n/define";

/** Messages of templates, one-sentence creation and the contact form. */
export const templatesMessages = defineMessages({
  "thing.template": { en: "Template", "zh-CN": "模板" },
  template_shipped_not_deletable: {
    en: "Templates shipped with Parley cannot be deleted",
    "zh-CN": "Parley 自带的模板不能删除",
  },
  template_source_required: { en: "Send appId or workflowId", "zh-CN": "请提供 appId 或 workflowId" },
  template_group_unknown: { en: "Unknown template group {group}", "zh-CN": "未知的模板分组 {group}" },
  template_name_required: { en: "The template's name is required (at most 50 characters)", "zh-CN": "请填写模板名称（最多 50 个字符）" },
  auto_create_description_required: {
    en: "Describe your app in 5 to 500 characters",
    "zh-CN": "请用 5 到 500 个字符描述您的应用",
  },
  auto_create_offline: {
    en: "No language model is configured, so the app cannot be drafted from a description; start from a template instead",
    "zh-CN": "尚未配置语言模型，无法根据描述起草应用；请改为从模板开始",
  },
  auto_create_failed: {
    en: "The model did not answer with a usable draft; try again or start from a template",
    "zh-CN": "模型没有给出可用的草稿；请重试或从模板开始",
  },
  avatar_name_required: { en: "The name is required (at most 50 characters)", "zh-CN": "请填写名称（最多 50 个字符）" },
  contact_first_name_invalid: { en: "The first name has 1 to 50 characters", "zh-CN": "名字为 1 到 50 个字符" },
  contact_last_name_invalid: { en: "The last name has 1 to 50 characters", "zh-CN": "姓氏为 1 到 50 个字符" },
  contact_email_invalid: { en: "Enter a valid work e-mail address", "zh-CN": "请输入有效的工作邮箱" },
  contact_company_invalid: { en: "The company name has 1 to 100 characters", "zh-CN": "公司名称为 1 到 100 个字符" },
  "mail.contact.subject": { en: "Contact request from {name} ({company})", "zh-CN": "来自 {name}（{company}）的联系请求" },
  "mail.contact.text": {
    en: "A visitor asked sales to get in touch (reply within 48 hours).\n\nName: {name}\nWork e-mail: {email}\nCompany: {company}\nReceived: {at}",
    "zh-CN": "有访客希望销售与其联系（请在 48 小时内回复）。\n\n姓名：{name}\n工作邮箱：{email}\n公司：{company}\n提交时间：{at}",
  },
});
