-- migration: search_vocab
-- Bug search (issue 10): how many bugs hold each trigram, read from the
-- FTS5 index itself (fts5vocab, kept with it), so a fuzzy query asks the
-- index only for its rarest trigrams (store/bug_search_repository.cpp).
CREATE VIRTUAL TABLE bugs_fts_vocab USING fts5vocab(bugs_fts, 'row');
