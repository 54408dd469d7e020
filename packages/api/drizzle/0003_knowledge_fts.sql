-- Full text over knowledge chunks: FTS5 indexes `search_text` (words already segmented by the
-- application: jieba for Chinese, Latin words as they are), kept in step by triggers.
CREATE VIRTUAL TABLE `knowledge_chunks_fts` USING fts5(search_text, content='knowledge_chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_fts_insert` AFTER INSERT ON `knowledge_chunks` BEGIN
  INSERT INTO knowledge_chunks_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_fts_delete` AFTER DELETE ON `knowledge_chunks` BEGIN
  INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_fts_update` AFTER UPDATE OF search_text ON `knowledge_chunks` BEGIN
  INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO knowledge_chunks_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
