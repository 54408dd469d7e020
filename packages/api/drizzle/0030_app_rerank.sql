ALTER TABLE `apps` ADD `rerank_model` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `rerank_threshold` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `rerank_models` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `rerank_format` text DEFAULT 'cohere' NOT NULL;