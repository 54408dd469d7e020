CREATE TABLE `database_write_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`app_id` text NOT NULL,
	`database_id` text NOT NULL,
	`sql` text NOT NULL,
	`kind` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`result` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`database_id`) REFERENCES `databases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `database_write_confirmations_conversation_idx` ON `database_write_confirmations` (`conversation_id`);--> statement-breakpoint
ALTER TABLE `usage_records` ADD `database_statements` text;