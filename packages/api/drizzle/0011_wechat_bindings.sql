CREATE TABLE `wechat_bindings` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`user_id` text NOT NULL,
	`client_id` text NOT NULL,
	`openid` text NOT NULL,
	`last_message_at` text,
	`last_notice_at` text,
	`last_notice_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `channel_clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wechat_bindings_openid_idx` ON `wechat_bindings` (`client_id`,`openid`);--> statement-breakpoint
CREATE INDEX `wechat_bindings_user_idx` ON `wechat_bindings` (`space_id`,`user_id`);