ALTER TABLE `apps` ADD `voice_model` text;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `speech_models` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `speech_format` text DEFAULT 'openai' NOT NULL;--> statement-breakpoint
ALTER TABLE `model_providers` ADD `speech_voices` text DEFAULT '[]' NOT NULL;