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
ALTER TABLE `usage_records` ADD `knowledge_hit_count` integer;--> statement-breakpoint
CREATE INDEX `usage_records_dashboard_idx` ON `usage_records` (`space_id`,`created_at`,`app_id`,`channel`,`end_user_id`,`credits`,`knowledge_hit_count`);--> statement-breakpoint
UPDATE `usage_records` SET `knowledge_hit_count` = json_array_length(`knowledge_hits`) WHERE `knowledge_hits` IS NOT NULL AND json_valid(`knowledge_hits`);--> statement-breakpoint
INSERT INTO `conversation_transfers` (`id`, `space_id`, `app_id`, `conversation_id`, `channel`, `end_user_id`, `reason`, `created_at`)
  SELECT 'trf_' || `id`, `space_id`, `app_id`, `id`, `channel`, `end_user_id`, 'unknown', coalesce(`handover_requested_at`, `manual_since`)
  FROM `conversations` WHERE coalesce(`handover_requested_at`, `manual_since`) IS NOT NULL;
