import mysql from "mysql2/promise";
import { skipWithoutDbServer, startMariaDb } from "../../testing/db-servers";
import { describeRemoteDatabase } from "./suite";

describeRemoteDatabase(
  {
    kind: "mysql",
    label: "MariaDB",
    start: startMariaDb,
    setup: [
      `CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(80) NOT NULL,
         total DECIMAL(10,2) COMMENT 'Order total in CNY, tax included', placed_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
       ) COMMENT = 'Orders placed in the shop'`,
      "CREATE TABLE stock (warehouse VARCHAR(20) NOT NULL, sku VARCHAR(20) NOT NULL, qty INT, PRIMARY KEY (sku, warehouse))",
      "INSERT INTO orders (customer, total) VALUES ('Ada', 12.50), ('Lin', 99.00), ('Mei', 7.25)",
    ],
    totalType: "decimal(10,2)",
    // MariaDB's sequence engine produces the rows as they are read.
    tenMillionRows: "SELECT seq AS n, MD5(RAND()) AS filler FROM seq_1_to_10000000",
    sleep: (seconds) => `SELECT SLEEP(${seconds}) AS probe`,
    activeProbes: async (server) => {
      const admin = await mysql.createConnection({ socketPath: server.socket, user: "root" });
      try {
        const [rows] = await admin.query<mysql.RowDataPacket[]>(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(0.3) AS probe%'",
        );
        return Number(rows[0]!.n);
      } finally {
        await admin.end();
      }
    },
  },
  skipWithoutDbServer("mariadb"),
);
