CREATE TABLE `hosted_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text,
	`name` text NOT NULL,
	`state` text DEFAULT 'logged_out' NOT NULL,
	`bridge` text NOT NULL,
	`login_id` text,
	`qr_code` text,
	`login_expires_at` text,
	`verify_hint` text,
	`external_id` text,
	`nickname` text DEFAULT '' NOT NULL,
	`avatar_url` text DEFAULT '' NOT NULL,
	`session` text DEFAULT '' NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`state_changed_at` text NOT NULL,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `hosted_accounts_space_idx` ON `hosted_accounts` (`space_id`);--> statement-breakpoint
CREATE TABLE `hosted_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`account_id` text NOT NULL,
	`external_id` text NOT NULL,
	`name` text NOT NULL,
	`member_count` integer DEFAULT 0 NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`present` integer DEFAULT true NOT NULL,
	`synced_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `hosted_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hosted_groups_account_external_idx` ON `hosted_groups` (`account_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `hosted_groups_space_idx` ON `hosted_groups` (`space_id`);