-- migration: ai_usage
-- after: accounts
-- ai: one row per call to the AI provider (GET /v1/admin/ai-usage): the
-- feature that asked, the provider and model, the token counts the provider
-- reported (0 when it reported none or failed), the organization (null when
-- the caller named none) and the time.
CREATE TABLE ai_usage (
  id TEXT PRIMARY KEY,
  org_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  feature TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  succeeded BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL
);
CREATE INDEX ai_usage_time ON ai_usage(created_at);
CREATE INDEX ai_usage_org ON ai_usage(org_id, created_at);
