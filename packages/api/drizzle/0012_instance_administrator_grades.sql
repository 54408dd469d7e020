-- Custom SQL migration file, put your code below! --
-- Until plans are sold, the instance administrator's spaces (personal and the team spaces they
-- own) have every capability: existing instances get the highest grade for them here, new ones
-- when the space is created (docs/decisions/0009-instance-administration.md).
UPDATE `spaces` SET `member_grade` = 'CUSTOM', `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ','now')
WHERE `owner_user_id` IN (SELECT `id` FROM `users` WHERE `is_instance_owner` = 1);
