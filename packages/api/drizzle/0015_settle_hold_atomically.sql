ALTER TABLE `credit_ledger` ADD `hold_key` text;--> statement-breakpoint
-- A charge that settles a credit hold drops the hold in the same statement: between the two,
-- other writers would count the credits twice (charged and still held) and charge too little.
CREATE TRIGGER `credit_ledger_settles_hold` AFTER INSERT ON `credit_ledger`
WHEN NEW.`hold_key` IS NOT NULL
BEGIN
  DELETE FROM `key_values` WHERE `key` = NEW.`hold_key`;
END;
