ALTER TABLE `plugins` ADD `kind` text DEFAULT 'http' NOT NULL;--> statement-breakpoint
ALTER TABLE `plugins` ADD `mcp_transport` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `plugins` ADD `mcp_tools` text DEFAULT '[]' NOT NULL;