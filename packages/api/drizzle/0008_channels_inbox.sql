CREATE TABLE `channel_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`deploy_type` text DEFAULT 'self-built' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`secrets` text DEFAULT '' NOT NULL,
	`offline_notify` text DEFAULT 'none' NOT NULL,
	`last_active_at` text,
	`last_error` text,
	`last_error_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_clients_space_idx` ON `channel_clients` (`space_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`channel` text NOT NULL,
	`client_id` text NOT NULL,
	`external_id` text NOT NULL,
	`nickname` text DEFAULT '' NOT NULL,
	`avatar_url` text DEFAULT '' NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`gender` text DEFAULT '' NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`wechat` text DEFAULT '' NOT NULL,
	`type` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_conversation_at` text,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_identity_idx` ON `customers` (`space_id`,`client_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `customers_recent_idx` ON `customers` (`space_id`,`last_conversation_at`);--> statement-breakpoint
CREATE TABLE `key_values` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `key_values_expiry_idx` ON `key_values` (`expires_at`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `client_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `external_conversation_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `customer_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `is_group` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `group_name` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sender_name` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `head_image_url` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `read_status` text DEFAULT 'HAVE_READ' NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `service_mode` text DEFAULT 'FULL_AUTO_MODE' NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `manual_since` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `last_message_at` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `reply_handle` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE INDEX `conversations_inbox_idx` ON `conversations` (`space_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_client_idx` ON `conversations` (`client_id`,`external_conversation_id`);--> statement-breakpoint
ALTER TABLE `messages` ADD `sender_name` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `delivery` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `delivery_error` text;