-- Document frequency of every full-text term (one row per term: how many chunks hold it), read
-- by full-text search to leave out terms most chunks contain: bm25 weighs them at about zero, yet
-- each one makes FTS5 score nearly every row.
CREATE VIRTUAL TABLE `knowledge_chunks_fts_vocab` USING fts5vocab(`knowledge_chunks_fts`, 'row');
