-- migration: accounts_customers
-- Accounts (issue 28, superadmin customers): a waitlist entry that an
-- operator created together with a new organization (POST
-- /v1/admin/customers) names it; completing that signup joins the person to
-- this organization as its admin instead of creating a new one. The entry
-- goes with the organization. admin_note: the operator's note of the last
-- approval or rejection.
ALTER TABLE waitlist ADD COLUMN target_org_id TEXT REFERENCES organizations(id) ON DELETE CASCADE;
ALTER TABLE waitlist ADD COLUMN admin_note TEXT;
