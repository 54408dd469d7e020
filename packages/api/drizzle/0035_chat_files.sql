CREATE TABLE `chat_files` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`conversation_id` text,
	`message_id` text,
	`end_user_id` text NOT NULL,
	`channel` text NOT NULL,
	`kind` text NOT NULL,
	`mime_type` text NOT NULL,
	`name` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`storage_key` text NOT NULL,
	`text_content` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_files_conversation_idx` ON `chat_files` (`conversation_id`);--> statement-breakpoint
CREATE INDEX `chat_files_space_idx` ON `chat_files` (`space_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `public_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`storage_key` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `public_assets_space_idx` ON `public_assets` (`space_id`);--> statement-breakpoint
ALTER TABLE `messages` ADD `attachments` text;