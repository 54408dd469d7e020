CREATE TABLE `web_client_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`visitor_id` text NOT NULL,
	`identity_user_id` text,
	`language` text DEFAULT 'en' NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `web_clients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `web_client_sessions_client_idx` ON `web_client_sessions` (`client_id`);--> statement-breakpoint
CREATE TABLE `web_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`name` text NOT NULL,
	`avatar_url` text DEFAULT '' NOT NULL,
	`welcome` text DEFAULT '' NOT NULL,
	`slogan` text DEFAULT '' NOT NULL,
	`position` text DEFAULT 'right' NOT NULL,
	`primary_color` text DEFAULT '#2563eb' NOT NULL,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`manual_transfer` integer DEFAULT false NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`identity_secret` text NOT NULL,
	`last_active_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `web_clients_space_idx` ON `web_clients` (`space_id`);