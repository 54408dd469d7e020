CREATE TABLE `space_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`role_id` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`max_uses` integer,
	`uses` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_invitations_token_unique` ON `space_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `space_invitations_space_idx` ON `space_invitations` (`space_id`);--> statement-breakpoint
CREATE TABLE `space_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`grants` text DEFAULT '[]' NOT NULL,
	`data_range` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_roles_name_unique` ON `space_roles` (`space_id`,`name`);--> statement-breakpoint
ALTER TABLE `channel_clients` ADD `created_by` text;--> statement-breakpoint
ALTER TABLE `space_members` ADD `role_id` text DEFAULT 'viewer' NOT NULL;--> statement-breakpoint
ALTER TABLE `space_members` ADD `credit_allocation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `space_members` ADD `credits_spent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `space_members` ADD `invited_by` text;--> statement-breakpoint
CREATE INDEX `space_members_role_idx` ON `space_members` (`space_id`,`role_id`);--> statement-breakpoint
ALTER TABLE `web_clients` ADD `created_by` text;--> statement-breakpoint
UPDATE `space_members` SET `role_id` = CASE `role` WHEN 'owner' THEN 'owner' WHEN 'admin' THEN 'admin' ELSE 'developer' END;--> statement-breakpoint
UPDATE `web_clients` SET `created_by` = (SELECT `owner_user_id` FROM `spaces` WHERE `spaces`.`id` = `web_clients`.`space_id`) WHERE `created_by` IS NULL;--> statement-breakpoint
UPDATE `channel_clients` SET `created_by` = (SELECT `owner_user_id` FROM `spaces` WHERE `spaces`.`id` = `channel_clients`.`space_id`) WHERE `created_by` IS NULL;
