CREATE TABLE `knowledge_feishu_auth` (
	`space_id` text PRIMARY KEY NOT NULL,
	`app_id` text NOT NULL,
	`app_secret` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `knowledge_bases` ADD `app_id` text;