CREATE TABLE `image_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`space_id` text NOT NULL,
	`model` text NOT NULL,
	`prompt` text NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`action` text NOT NULL,
	`parent_task_id` text,
	`parent_index` integer,
	`status` text NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`provider_task_id` text,
	`results` text DEFAULT '[]' NOT NULL,
	`buttons` text DEFAULT '[]' NOT NULL,
	`revised_prompt` text,
	`credits_held` integer DEFAULT 0 NOT NULL,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`hold` text,
	`error_code` integer,
	`error_detail` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `image_tasks_user_idx` ON `image_tasks` (`user_id`,`space_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `image_tasks_one_running_idx` ON `image_tasks` (`user_id`) WHERE status IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE `model_providers` ADD `image_models` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `image_format` text DEFAULT 'openai' NOT NULL;