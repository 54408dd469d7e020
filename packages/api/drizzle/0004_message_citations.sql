ALTER TABLE `conversations` ADD `handover_requested_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `citations` text;