-- migration: search_vocab
-- Bug search (issue 10): SQLite only (an fts5vocab table over bugs_fts);
-- pg_trgm's index needs no companion on PostgreSQL.
SELECT 1;
