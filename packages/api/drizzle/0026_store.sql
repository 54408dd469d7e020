CREATE TABLE `store_listings` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`space_id` text NOT NULL,
	`audience` text NOT NULL,
	`published_by` text NOT NULL,
	`published_at` text NOT NULL,
	`web_client_id` text,
	`taken_down_at` text,
	`taken_down_by` text,
	`takedown_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_listings_subject_unique` ON `store_listings` (`kind`,`subject_id`);--> statement-breakpoint
CREATE INDEX `store_listings_audience_idx` ON `store_listings` (`audience`,`published_at`);--> statement-breakpoint
CREATE TABLE `store_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`guest_messages_per_hour` integer NOT NULL,
	`guest_sessions_per_hour` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `store_space_settings` (
	`space_id` text PRIMARY KEY NOT NULL,
	`square_open_to_everyone` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
