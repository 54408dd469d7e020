CREATE TABLE `usage_hourly` (
	`space_id` text NOT NULL,
	`hour` text NOT NULL,
	`app_id` text NOT NULL,
	`channel` text NOT NULL,
	`records` integer NOT NULL,
	`credits` integer NOT NULL,
	`not_hit` integer NOT NULL,
	`users` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`space_id`, `hour`, `app_id`, `channel`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `customers_recent_idx`;--> statement-breakpoint
CREATE INDEX `customers_order_idx` ON `customers` (`space_id`,`last_conversation_at`,`id`);--> statement-breakpoint
CREATE INDEX `customers_channel_order_idx` ON `customers` (`space_id`,`channel`,`last_conversation_at`,`id`);--> statement-breakpoint
CREATE INDEX `customers_client_order_idx` ON `customers` (`space_id`,`client_id`,`last_conversation_at`,`id`);--> statement-breakpoint
-- The dashboard's rollup per UTC hour (days in the caller's time zone), from the records as 0021 filled the daily one.
INSERT INTO `usage_hourly` (`space_id`, `hour`, `app_id`, `channel`, `records`, `credits`, `not_hit`, `users`)
  SELECT r.`space_id`, substr(r.`created_at`, 1, 13), coalesce(r.`app_id`, ''), coalesce(r.`channel`, ''), count(*), sum(r.`credits`),
    sum(coalesce(r.`knowledge_hit_count`, -1) = 0), coalesce(group_concat(DISTINCT printf('%x', u.`seq`)), '')
  FROM `usage_records` r LEFT JOIN `usage_end_users` u ON u.`space_id` = r.`space_id` AND u.`end_user_id` = r.`end_user_id`
  GROUP BY r.`space_id`, substr(r.`created_at`, 1, 13), coalesce(r.`app_id`, ''), coalesce(r.`channel`, '');--> statement-breakpoint
DELETE FROM `usage_daily`;--> statement-breakpoint
-- Customer keyword search (customers/search.ts): the four text fields under trigram FTS5, and
-- `grams`, each character as «x» and each pair of adjacent characters as xy» (one trigram each),
-- for keywords of 1 or 2 characters. Grams are cut from positions 1 to 10,000 of each field.
CREATE TABLE `customers_search_positions` (`i` integer PRIMARY KEY NOT NULL);--> statement-breakpoint
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO `customers_search_positions` (`i`) SELECT i FROM n;--> statement-breakpoint
CREATE VIRTUAL TABLE `customers_search` USING fts5(nickname, company, remark, wechat, grams, tokenize='trigram case_sensitive 0');--> statement-breakpoint
INSERT INTO `customers_search` (rowid, nickname, company, remark, wechat, grams)
SELECT c.rowid, c.nickname, c.company, c.remark, c.wechat, coalesce((SELECT group_concat(g, ' ') FROM (
    SELECT '«' || substr(f.t, p.i, 1) || '»' AS g FROM (SELECT c.nickname AS t UNION ALL SELECT c.company UNION ALL SELECT c.remark UNION ALL SELECT c.wechat) f JOIN `customers_search_positions` p ON p.i <= length(f.t)
      WHERE substr(f.t, p.i, 1) NOT IN (' ', char(9), char(10), char(13))
    UNION SELECT substr(f.t, p.i, 2) || '»' FROM (SELECT c.nickname AS t UNION ALL SELECT c.company UNION ALL SELECT c.remark UNION ALL SELECT c.wechat) f JOIN `customers_search_positions` p ON p.i < length(f.t)
      WHERE instr(substr(f.t, p.i, 2), ' ') = 0
  )), '') FROM `customers` c;--> statement-breakpoint
CREATE TRIGGER `customers_search_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO `customers_search` (rowid, nickname, company, remark, wechat, grams)
  VALUES (new.rowid, new.nickname, new.company, new.remark, new.wechat, coalesce((SELECT group_concat(g, ' ') FROM (
    SELECT '«' || substr(f.t, p.i, 1) || '»' AS g FROM (SELECT new.nickname AS t UNION ALL SELECT new.company UNION ALL SELECT new.remark UNION ALL SELECT new.wechat) f JOIN `customers_search_positions` p ON p.i <= length(f.t)
      WHERE substr(f.t, p.i, 1) NOT IN (' ', char(9), char(10), char(13))
    UNION SELECT substr(f.t, p.i, 2) || '»' FROM (SELECT new.nickname AS t UNION ALL SELECT new.company UNION ALL SELECT new.remark UNION ALL SELECT new.wechat) f JOIN `customers_search_positions` p ON p.i < length(f.t)
      WHERE instr(substr(f.t, p.i, 2), ' ') = 0
  )), ''));
END;--> statement-breakpoint
CREATE TRIGGER `customers_search_update` AFTER UPDATE OF nickname, company, remark, wechat ON `customers` BEGIN
  DELETE FROM `customers_search` WHERE rowid = old.rowid;
  INSERT INTO `customers_search` (rowid, nickname, company, remark, wechat, grams)
  VALUES (new.rowid, new.nickname, new.company, new.remark, new.wechat, coalesce((SELECT group_concat(g, ' ') FROM (
    SELECT '«' || substr(f.t, p.i, 1) || '»' AS g FROM (SELECT new.nickname AS t UNION ALL SELECT new.company UNION ALL SELECT new.remark UNION ALL SELECT new.wechat) f JOIN `customers_search_positions` p ON p.i <= length(f.t)
      WHERE substr(f.t, p.i, 1) NOT IN (' ', char(9), char(10), char(13))
    UNION SELECT substr(f.t, p.i, 2) || '»' FROM (SELECT new.nickname AS t UNION ALL SELECT new.company UNION ALL SELECT new.remark UNION ALL SELECT new.wechat) f JOIN `customers_search_positions` p ON p.i < length(f.t)
      WHERE instr(substr(f.t, p.i, 2), ' ') = 0
  )), ''));
END;--> statement-breakpoint
CREATE TRIGGER `customers_search_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM `customers_search` WHERE rowid = old.rowid;
END;
