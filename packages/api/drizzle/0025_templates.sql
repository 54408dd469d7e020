CREATE TABLE `contact_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`company_name` text NOT NULL,
	`language` text NOT NULL,
	`mailed` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_requests_created_idx` ON `contact_requests` (`created_at`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`group_id` text NOT NULL,
	`source` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`name_en` text NOT NULL,
	`name_zh` text NOT NULL,
	`description_en` text NOT NULL,
	`description_zh` text NOT NULL,
	`avatar_url` text NOT NULL,
	`category` text NOT NULL,
	`payload` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_code_unique` ON `templates` (`code`);--> statement-breakpoint
CREATE INDEX `templates_group_idx` ON `templates` (`group_id`,`sort_order`);