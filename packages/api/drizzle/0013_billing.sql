CREATE TABLE `balance_alerts` (
	`space_id` text PRIMARY KEY NOT NULL,
	`threshold` integer NOT NULL,
	`channels` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`fired` integer DEFAULT false NOT NULL,
	`fired_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `benefit_ledger` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`delta` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`reason` text NOT NULL,
	`reference` text,
	`app_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `benefit_ledger_user_idx` ON `benefit_ledger` (`user_id`,`seq`);--> statement-breakpoint
CREATE TABLE `cash_outs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount` integer NOT NULL,
	`account` text NOT NULL,
	`status` text NOT NULL,
	`reviewed_by` text,
	`review_note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`reviewed_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cash_outs_user_idx` ON `cash_outs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `cash_outs_status_idx` ON `cash_outs` (`status`);--> statement-breakpoint
CREATE TABLE `check_ins` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`space_id` text NOT NULL,
	`credits` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invitation_codes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitation_codes_code_unique` ON `invitation_codes` (`code`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`invitee_user_id` text PRIMARY KEY NOT NULL,
	`inviter_user_id` text NOT NULL,
	`credits` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`invitee_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invitations_inviter_idx` ON `invitations` (`inviter_user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`space_id` text,
	`kind` text NOT NULL,
	`params` text NOT NULL,
	`read_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notices_user_idx` ON `notices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`space_id` text NOT NULL,
	`user_id` text NOT NULL,
	`product_type` text NOT NULL,
	`plan_code` text,
	`period` text,
	`credits` integer,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`provider_reference` text,
	`pay_url` text,
	`granted` text,
	`actor_user_id` text,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`paid_at` text,
	`fulfilled_at` text,
	`closed_at` text,
	`refunded_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_number_unique` ON `orders` (`number`);--> statement-breakpoint
CREATE INDEX `orders_space_idx` ON `orders` (`space_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`order_id` text,
	`type` text NOT NULL,
	`outcome` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_unique` ON `payment_events` (`provider`,`event_id`);--> statement-breakpoint
CREATE TABLE `plan_settings` (
	`code` text PRIMARY KEY NOT NULL,
	`monthly_prices` text,
	`included_credits` integer,
	`quotas` text,
	`offered` integer,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `space_plans` (
	`space_id` text PRIMARY KEY NOT NULL,
	`plan_code` text NOT NULL,
	`period` text NOT NULL,
	`started_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
