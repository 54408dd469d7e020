CREATE TABLE `database_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`table_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`position` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`table_id`) REFERENCES `database_tables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `database_fields_name_idx` ON `database_fields` (`table_id`,`name`);--> statement-breakpoint
CREATE TABLE `database_tables` (
	`id` text PRIMARY KEY NOT NULL,
	`database_id` text NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`chosen` integer DEFAULT true NOT NULL,
	`schema_json` text DEFAULT '[]' NOT NULL,
	`row_count` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`database_id`) REFERENCES `databases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `database_tables_name_idx` ON `database_tables` (`database_id`,`name`);--> statement-breakpoint
CREATE INDEX `database_tables_space_idx` ON `database_tables` (`space_id`);--> statement-breakpoint
CREATE TABLE `databases` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`allow_query` integer DEFAULT true NOT NULL,
	`allow_add` integer DEFAULT false NOT NULL,
	`allow_edit` integer DEFAULT false NOT NULL,
	`allow_delete` integer DEFAULT false NOT NULL,
	`dialect` text,
	`host` text DEFAULT '' NOT NULL,
	`port` integer,
	`username` text DEFAULT '' NOT NULL,
	`password` text DEFAULT '' NOT NULL,
	`database_name` text DEFAULT '' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `databases_name_idx` ON `databases` (`space_id`,`name`);