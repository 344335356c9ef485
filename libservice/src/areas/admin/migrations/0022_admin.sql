-- migration: admin_customer_profiles
-- after: accounts
-- admin: what an operator keeps about a customer organization (Spec 2
-- "Superadmin" customers). One row per organization that has a profile; an
-- organization without one reads as stage trial, billing unassigned.
CREATE TABLE customer_profiles (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  lifecycle_stage TEXT NOT NULL DEFAULT 'trial',
  billing_status TEXT NOT NULL DEFAULT 'unassigned',
  admin_notes TEXT NOT NULL DEFAULT '',
  contact_name TEXT,
  contact_email TEXT,
  use_case TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
