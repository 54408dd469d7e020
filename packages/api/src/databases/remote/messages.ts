import { defineMessages } from "../../i18n/define";

/** Messages of remote databases (connection, tables, reads and writes). */
export const remoteDatabaseMessages = defineMessages({
  remote_db_unreachable: {
    en: "Cannot reach the database at {host}:{port}: {detail}",
    "zh-CN": "无法连接到 {host}:{port} 上的数据库：{detail}",
  },
  remote_db_refused_address: {
    en: "Connecting to {host} is not allowed by this instance's network policy: {detail}",
    "zh-CN": "本实例的网络策略不允许连接 {host}：{detail}",
  },
  remote_db_auth_failed: {
    en: "The database refused the user {user}: check the user name and password",
    "zh-CN": "数据库拒绝了用户 {user}：请检查用户名和密码",
  },
  remote_db_unknown_database: {
    en: "The database {database} does not exist on {host}:{port}, or the user may not use it",
    "zh-CN": "{host}:{port} 上不存在数据库 {database}，或该用户无权使用它",
  },
  remote_db_timeout: {
    en: "The database did not finish within {seconds} seconds; the statement was stopped",
    "zh-CN": "数据库未能在 {seconds} 秒内完成，语句已被终止",
  },
  remote_db_busy: {
    en: "All {max} connections to the database are busy; try again shortly",
    "zh-CN": "数据库的 {max} 个连接都在使用中，请稍后再试",
  },
  remote_db_too_many_rows: {
    en: "The query returns more than {max} rows; narrow it down",
    "zh-CN": "查询结果超过 {max} 行，请缩小查询范围",
  },
  remote_db_read_only: {
    en: "The statement tries to change data, but reads run in a read-only transaction",
    "zh-CN": "该语句试图修改数据，但查询在只读事务中运行",
  },
  remote_db_query_failed: {
    en: "The database refused the statement: {detail}",
    "zh-CN": "数据库拒绝执行该语句：{detail}",
  },
  remote_db_closed: {
    en: "The connection pool of this database was closed; its settings changed",
    "zh-CN": "该数据库的连接池已关闭（其设置已更改）",
  },
  remote_db_not_remote: { en: "This works on remote databases only", "zh-CN": "该操作仅适用于远程数据库" },
  remote_db_table_missing: {
    en: 'The table "{name}" no longer exists in the database; reload the tables and choose again',
    "zh-CN": "数据库中已不存在表“{name}”，请重新加载表列表后再选择",
  },
  remote_db_column_missing: { en: 'The table "{table}" has no column "{name}"', "zh-CN": "表“{table}”中没有列“{name}”" },
  remote_db_table_duplicate: { en: 'The table "{name}" is chosen more than once', "zh-CN": "表“{name}”被重复选择" },
});
