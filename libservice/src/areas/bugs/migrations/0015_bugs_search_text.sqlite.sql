-- migration: search_text
-- Bug search (issue 10): PostgreSQL only (a stored lower-cased search text
-- under pg_trgm's index); SQLite searches through FTS5 (migration 0007).
SELECT 1;
