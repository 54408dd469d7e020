CREATE TABLE `workflow_node_runs` (
	`run_id` text NOT NULL,
	`node_id` text NOT NULL,
	`node_type` text NOT NULL,
	`node_name` text NOT NULL,
	`status` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`inputs` text,
	`outputs` text,
	`branch` text,
	`error` text,
	`started_at` text,
	`finished_at` text,
	`duration_ms` integer,
	PRIMARY KEY(`run_id`, `node_id`),
	FOREIGN KEY (`run_id`) REFERENCES `workflow_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workflow_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`node_id` text,
	`inputs` text DEFAULT '{}' NOT NULL,
	`graph` text NOT NULL,
	`trigger` text DEFAULT '{}' NOT NULL,
	`output` text,
	`error` text,
	`waiting_until` text,
	`steps` integer DEFAULT 0 NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workflow_id`) REFERENCES `workflows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `workflow_runs_workflow_idx` ON `workflow_runs` (`workflow_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `workflow_runs_status_idx` ON `workflow_runs` (`status`,`space_id`);--> statement-breakpoint
CREATE TABLE `workflow_schedule_ticks` (
	`workflow_id` text NOT NULL,
	`tick` text NOT NULL,
	`run_id` text,
	`claimed_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`workflow_id`, `tick`),
	FOREIGN KEY (`workflow_id`) REFERENCES `workflows`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workflows` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`avatar_url` text NOT NULL,
	`category` text NOT NULL,
	`elements` text DEFAULT '[]' NOT NULL,
	`lines` text DEFAULT '[]' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`published_at` text,
	`cron` text,
	`cron_timezone` text DEFAULT 'UTC' NOT NULL,
	`cron_enabled` integer DEFAULT false NOT NULL,
	`app_id` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `workflows_space_idx` ON `workflows` (`space_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `workflows_public_idx` ON `workflows` (`is_public`);