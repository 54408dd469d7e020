import pg from "pg";
import { skipWithoutDbServer, startPostgres } from "../../testing/db-servers";
import { describeRemoteDatabase } from "./suite";

describeRemoteDatabase(
  {
    kind: "postgresql",
    label: "PostgreSQL",
    start: startPostgres,
    setup: [
      "CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2), placed_at timestamptz NOT NULL DEFAULT now())",
      "COMMENT ON TABLE orders IS 'Orders placed in the shop'",
      "COMMENT ON COLUMN orders.total IS 'Order total in CNY, tax included'",
      "CREATE TABLE stock (warehouse text NOT NULL, sku text NOT NULL, qty integer, PRIMARY KEY (sku, warehouse))",
      "INSERT INTO orders (customer, total) VALUES ('Ada', 12.50), ('Lin', 99.00), ('Mei', 7.25)",
    ],
    totalType: "numeric(10,2)",
    // In the select list the series streams row by row; the cursor takes only what it asks for.
    tenMillionRows: "SELECT generate_series(1, 10000000) AS n, md5(random()::text) AS filler",
    sleep: (seconds) => `SELECT pg_sleep(${seconds}) AS probe`,
    activeProbes: async (server) => {
      const admin = new pg.Client({ host: server.socket, port: server.port, user: "postgres", database: "postgres" });
      await admin.connect();
      try {
        const result = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(0.3) AS probe%'",
        );
        return result.rows[0]!.n;
      } finally {
        await admin.end();
      }
    },
  },
  skipWithoutDbServer("postgresql"),
);
