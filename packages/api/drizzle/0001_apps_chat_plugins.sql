CREATE TABLE `app_reactions` (
	`app_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`app_id`, `user_id`, `kind`),
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `apps` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'LIGHT' NOT NULL,
	`description` text NOT NULL,
	`opening_introduction` text NOT NULL,
	`avatar_url` text NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`category` text NOT NULL,
	`settings_prompt` text NOT NULL,
	`default_model` text DEFAULT 'gpt-4.1-mini' NOT NULL,
	`optional_models` text DEFAULT '[]' NOT NULL,
	`memory_turns` integer DEFAULT 10 NOT NULL,
	`memory_retention_minutes` integer DEFAULT 1440 NOT NULL,
	`temperature` real DEFAULT 0.7 NOT NULL,
	`retrieval_length` integer DEFAULT 4000 NOT NULL,
	`knowledge_base_ids` text DEFAULT '[]' NOT NULL,
	`database_ids` text DEFAULT '[]' NOT NULL,
	`retrieval_mode` text DEFAULT 'semantic' NOT NULL,
	`similarity_threshold` real DEFAULT 0.75 NOT NULL,
	`semantic_count` integer DEFAULT 3 NOT NULL,
	`full_text_count` integer DEFAULT 1 NOT NULL,
	`no_hit_strategy` text DEFAULT 'default' NOT NULL,
	`no_hit_text` text,
	`citation_enabled` integer DEFAULT false NOT NULL,
	`citation_threshold` real DEFAULT 0.8 NOT NULL,
	`plugins` text DEFAULT '[]' NOT NULL,
	`multi_round_thinking` integer DEFAULT false NOT NULL,
	`max_rounds` integer DEFAULT 3 NOT NULL,
	`plugin_strategy` text DEFAULT 'both' NOT NULL,
	`voice` text,
	`bottom_slogan` text,
	`advanced_config` text DEFAULT '{}' NOT NULL,
	`thumb_count` integer DEFAULT 0 NOT NULL,
	`collect_count` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `apps_code_unique` ON `apps` (`code`);--> statement-breakpoint
CREATE INDEX `apps_space_idx` ON `apps` (`space_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`end_user_id` text NOT NULL,
	`channel` text NOT NULL,
	`title` text,
	`context_cleared_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_lookup_idx` ON `conversations` (`app_id`,`end_user_id`,`channel`,`updated_at`);--> statement-breakpoint
CREATE TABLE `credit_ledger` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`space_id` text NOT NULL,
	`delta` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`reason` text NOT NULL,
	`reference` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_ledger_space_idx` ON `credit_ledger` (`space_id`,`seq`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`tool_calls` text,
	`status` text DEFAULT 'complete' NOT NULL,
	`model` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `model_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text,
	`api_key` text,
	`models` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `plugins` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`code` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`avatar_url` text NOT NULL,
	`request_url` text NOT NULL,
	`request_method` text NOT NULL,
	`request_params` text DEFAULT '[]' NOT NULL,
	`response_params` text DEFAULT '[]' NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plugins_code_unique` ON `plugins` (`code`);--> statement-breakpoint
CREATE INDEX `plugins_space_idx` ON `plugins` (`space_id`);--> statement-breakpoint
CREATE TABLE `rate_limit_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text NOT NULL,
	`target_channel` text NOT NULL,
	`period_unit` text NOT NULL,
	`count` integer NOT NULL,
	`reply_when_exceeded` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rate_limit_rules_app_idx` ON `rate_limit_rules` (`app_id`);--> statement-breakpoint
CREATE TABLE `threshold_configs` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`scene` text NOT NULL,
	`config` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `threshold_configs_scene_unique` ON `threshold_configs` (`space_id`,`scene`);--> statement-breakpoint
CREATE TABLE `usage_records` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`app_id` text,
	`conversation_id` text,
	`message_id` text,
	`end_user_id` text,
	`channel` text,
	`prompt` text NOT NULL,
	`answer` text NOT NULL,
	`model` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`context` text,
	`knowledge_hits` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_records_space_idx` ON `usage_records` (`space_id`,`created_at`);