ALTER TABLE `credit_ledger` ADD `user_id` text;--> statement-breakpoint
ALTER TABLE `credit_ledger` ADD `from_allocation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A member's spend moves the part paid from their allocation in the same statement as the
-- charge: in between, either the allocation or the pool would read too large to other writers.
CREATE TRIGGER `credit_ledger_spends_allocation` AFTER INSERT ON `credit_ledger`
WHEN NEW.`from_allocation` > 0 AND NEW.`user_id` IS NOT NULL
BEGIN
  UPDATE `space_members` SET `credit_allocation` = `credit_allocation` - NEW.`from_allocation`, `credits_spent` = `credits_spent` + NEW.`from_allocation`
  WHERE `space_id` = NEW.`space_id` AND `user_id` = NEW.`user_id`;
END;
