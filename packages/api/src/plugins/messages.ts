import { defineMessages } from "../i18n/define";

/** Messages of plugins, their parsers and the built-ins' names. */
export const pluginsMessages = defineMessages({
  "thing.plugin": { en: "Plugin", "zh-CN": "插件" },
  plugin_name_required: { en: "The plugin name is required", "zh-CN": "请填写插件名称" },
  plugin_description_required: { en: "The plugin description is required", "zh-CN": "请填写插件描述" },
  plugin_avatar_required: { en: "The plugin image is required", "zh-CN": "请上传插件图片" },
  plugin_avatar_invalid: { en: "The plugin image must be an http(s) address or a PNG/JPEG image", "zh-CN": "插件图片须为 http(s) 地址或 PNG/JPEG 图片" },
  plugin_method_required: { en: "The request type is required", "zh-CN": "请选择请求方式" },
  plugin_url_required: { en: "The request URL is required", "zh-CN": "请填写请求地址" },
  plugin_url_invalid: { en: "The request URL must start with http:// or https://", "zh-CN": "请求地址须以 http:// 或 https:// 开头" },
  plugin_params_required: { en: "Add at least one request parameter", "zh-CN": "请至少添加一个请求参数" },
  plugin_param_name_required: { en: "Every parameter needs a name", "zh-CN": "参数名称不能为空" },
  plugin_param_name_invalid: {
    en: 'Parameter name "{name}" may only hold English letters and underscores',
    "zh-CN": "参数名称“{name}”只能包含英文字母和下划线",
  },
  plugin_param_name_duplicate: { en: 'Parameter name "{name}" is used twice at the same level', "zh-CN": "同一层级中参数名称“{name}”重复" },
  plugin_param_default_invalid: { en: 'The default of "{name}" is not a valid {type}', "zh-CN": "参数“{name}”的默认值不是有效的 {type}" },
  plugin_header_invalid: { en: 'The header "{name}" is not allowed or not valid', "zh-CN": "请求头“{name}”无效或不允许设置" },
  plugin_mcp_tool_invalid: { en: "An MCP tool cannot be used: {reason}", "zh-CN": "MCP 工具无法使用：{reason}" },
  plugin_mcp_not_mcp: { en: "This plugin is not an MCP server", "zh-CN": "该插件不是 MCP 服务器" },
  plugin_mcp_failed: { en: "The MCP server could not be used: {reason}", "zh-CN": "无法使用该 MCP 服务器：{reason}" },
  plugin_debug_mcp: { en: "Test MCP tools with the MCP tool test run", "zh-CN": "请使用 MCP 工具测试运行来测试 MCP 工具" },
  plugin_debug_target_required: { en: "Send a plugin draft or a pluginId to test", "zh-CN": "请提供要测试的插件草稿或 pluginId" },
  plugin_parse_not_curl: { en: "The command does not start with curl", "zh-CN": "该命令不是以 curl 开头" },
  plugin_parse_quote_unclosed: { en: "The command has a quote that is never closed", "zh-CN": "命令中有未闭合的引号" },
  plugin_parse_curl_option_value: { en: "The curl option {option} has no value", "zh-CN": "curl 选项 {option} 缺少取值" },
  plugin_parse_curl_no_url: { en: "No URL was found in the curl command", "zh-CN": "curl 命令中没有找到 URL" },
  plugin_parse_curl_body: {
    en: "The request body is not a JSON object; plugins send JSON bodies (use -G to send form fields as a query string)",
    "zh-CN": "请求体不是 JSON 对象；插件只发送 JSON 请求体（表单字段可用 -G 作为查询参数发送）",
  },
  plugin_parse_url_invalid: { en: '"{url}" is not an http or https URL', "zh-CN": "“{url}”不是 http 或 https 地址" },
  plugin_parse_method_unsupported: {
    en: "The request type {method} is not supported; use GET, POST, PUT, PATCH or DELETE",
    "zh-CN": "不支持请求方式 {method}，请使用 GET、POST、PUT、PATCH 或 DELETE",
  },
  plugin_parse_openapi_syntax: {
    en: "The OpenAPI document is neither valid JSON nor YAML: {reason}",
    "zh-CN": "OpenAPI 文档不是有效的 JSON 或 YAML：{reason}",
  },
  plugin_parse_openapi_version: {
    en: "Only OpenAPI 3.x documents can be parsed (this one is version {version})",
    "zh-CN": "仅支持 OpenAPI 3.x 文档（此文档版本为 {version}）",
  },
  plugin_parse_openapi_no_operations: { en: "The OpenAPI document has no operations under paths", "zh-CN": "OpenAPI 文档的 paths 中没有任何接口" },
  plugin_parse_operation_choose: {
    en: "The document has several operations; choose one in operation: {operations}",
    "zh-CN": "文档包含多个接口，请在 operation 中选择一个：{operations}",
  },
  plugin_parse_operation_unknown: {
    en: 'No operation "{operation}"; the document has: {operations}',
    "zh-CN": "没有接口“{operation}”；文档中的接口有：{operations}",
  },
  plugin_parse_openapi_no_server: {
    en: "The document has no absolute server URL (servers[0].url must start with http:// or https://)",
    "zh-CN": "文档中没有完整的服务器地址（servers[0].url 须以 http:// 或 https:// 开头）",
  },
  plugin_parse_openapi_ref: { en: "The reference {ref} cannot be resolved inside the document", "zh-CN": "无法在文档内解析引用 {ref}" },
  "plugin.builtin.current_time.name": { en: "Current time", "zh-CN": "当前时间" },
  "plugin.builtin.current_time.description": { en: "Date, time and weekday in any time zone", "zh-CN": "获取任意时区的日期、时间和星期" },
  "plugin.builtin.calculator.name": { en: "Calculator", "zh-CN": "计算器" },
  "plugin.builtin.calculator.description": {
    en: "Exact arithmetic: + - * / % ^, parentheses, sqrt, log, sin, cos and more",
    "zh-CN": "精确计算：+ - * / % ^、括号、sqrt、log、sin、cos 等",
  },
  "plugin.builtin.fetch_webpage.name": { en: "Read web page", "zh-CN": "读取网页" },
  "plugin.builtin.fetch_webpage.description": { en: "Fetches a web page and returns its readable text", "zh-CN": "抓取网页并返回可读正文" },
  "plugin.builtin.web_search.name": { en: "Web search", "zh-CN": "联网搜索" },
  "plugin.builtin.web_search.description": {
    en: "Searches the web with the search provider the owner configured",
    "zh-CN": "使用管理员配置的搜索服务联网搜索",
  },
});
