CREATE TABLE `knowledge_eval_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`question` text NOT NULL,
	`passages` text DEFAULT '[]' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_eval_questions_kb_idx` ON `knowledge_eval_questions` (`knowledge_base_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `knowledge_eval_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`knowledge_base_id` text NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`status` text NOT NULL,
	`question_count` integer NOT NULL,
	`hit_rate` real,
	`recall` real,
	`ndcg10` real,
	`mrr` real,
	`results` text DEFAULT '[]' NOT NULL,
	`elapsed_ms` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`knowledge_base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_eval_runs_kb_idx` ON `knowledge_eval_runs` (`knowledge_base_id`,`created_at`);