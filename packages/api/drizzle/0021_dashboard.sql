CREATE TABLE `conversation_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`channel` text NOT NULL,
	`end_user_id` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_transfers_space_idx` ON `conversation_transfers` (`space_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`space_id` text NOT NULL,
	`day` text NOT NULL,
	`app_id` text NOT NULL,
	`channel` text NOT NULL,
	`records` integer NOT NULL,
	`credits` integer NOT NULL,
	`not_hit` integer NOT NULL,
	`users` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`space_id`, `day`, `app_id`, `channel`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `usage_end_users` (
	`space_id` text NOT NULL,
	`end_user_id` text NOT NULL,
	`seq` integer NOT NULL,
	PRIMARY KEY(`space_id`, `end_user_id`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_end_users_seq_idx` ON `usage_end_users` (`space_id`,`seq`);--> statement-breakpoint
CREATE TABLE `usage_words` (
	`space_id` text NOT NULL,
	`day` text NOT NULL,
	`app_id` text NOT NULL,
	`channel` text NOT NULL,
	`word` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`space_id`, `day`, `app_id`, `channel`, `word`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_words_cover_idx` ON `usage_words` (`space_id`,`day`,`app_id`,`channel`,`word`,`count`);--> statement-breakpoint
ALTER TABLE `usage_records` ADD `knowledge_hit_count` integer;--> statement-breakpoint
UPDATE `usage_records` SET `knowledge_hit_count` = json_array_length(`knowledge_hits`) WHERE `knowledge_hits` IS NOT NULL AND json_valid(`knowledge_hits`);--> statement-breakpoint
INSERT INTO `conversation_transfers` (`id`, `space_id`, `app_id`, `conversation_id`, `channel`, `end_user_id`, `reason`, `created_at`)
  SELECT 'trf_' || `id`, `space_id`, `app_id`, `id`, `channel`, `end_user_id`, 'unknown', coalesce(`handover_requested_at`, `manual_since`)
  FROM `conversations` WHERE coalesce(`handover_requested_at`, `manual_since`) IS NOT NULL;--> statement-breakpoint
INSERT INTO `usage_end_users` (`space_id`, `end_user_id`, `seq`)
  SELECT `space_id`, `end_user_id`, row_number() OVER (PARTITION BY `space_id` ORDER BY min(`created_at`), `end_user_id`)
  FROM `usage_records` WHERE `end_user_id` IS NOT NULL GROUP BY `space_id`, `end_user_id`;--> statement-breakpoint
INSERT INTO `usage_daily` (`space_id`, `day`, `app_id`, `channel`, `records`, `credits`, `not_hit`, `users`)
  SELECT r.`space_id`, substr(r.`created_at`, 1, 10), coalesce(r.`app_id`, ''), coalesce(r.`channel`, ''), count(*), sum(r.`credits`),
    sum(coalesce(r.`knowledge_hit_count`, -1) = 0), coalesce(group_concat(DISTINCT printf('%x', u.`seq`)), '')
  FROM `usage_records` r LEFT JOIN `usage_end_users` u ON u.`space_id` = r.`space_id` AND u.`end_user_id` = r.`end_user_id`
  GROUP BY r.`space_id`, substr(r.`created_at`, 1, 10), coalesce(r.`app_id`, ''), coalesce(r.`channel`, '');
