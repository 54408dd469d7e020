ALTER TABLE `jobs` ADD `space_id` text;--> statement-breakpoint
CREATE INDEX `jobs_claim_idx` ON `jobs` (`kind`,`status`,`run_after`);--> statement-breakpoint
-- Jobs queued before this migration: their space from the payload, or from the file or conversation it names.
UPDATE `jobs` SET `space_id` = coalesce(
  json_extract(`payload`, '$.spaceId'),
  (SELECT `space_id` FROM `knowledge_files` WHERE `id` = json_extract(`jobs`.`payload`, '$.fileId')),
  (SELECT `space_id` FROM `conversations` WHERE `id` = json_extract(`jobs`.`payload`, '$.conversationId'))
) WHERE `status` IN ('queued', 'running');
