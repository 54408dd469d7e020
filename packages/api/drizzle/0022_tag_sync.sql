ALTER TABLE `customers` ADD `platform_owner` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tags` ADD `remote_ids` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `tags` ADD `sync_state` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `tags` ADD `synced_at` text;--> statement-breakpoint
ALTER TABLE `tags` ADD `sync_error` text;