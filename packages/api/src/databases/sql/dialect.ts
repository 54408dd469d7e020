/** The SQL dialects a database speaks: built-in databases are SQLite; remote ones MySQL/MariaDB or PostgreSQL. */
export type SqlDialect = "sqlite" | "mysql" | "postgresql";
