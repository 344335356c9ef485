-- migration: operations_billing
-- after: accounts
-- Billing (issue 28 item 3, Spec 2 "Billing", "Budget"): one balance row per
-- organization and the credit ledger, its history. Every grant and charge is
-- one ledger row written in the same transaction as the balance change it
-- makes (areas/operations/app/billing.h). organizations.prepaid_credits is
-- no longer read: its values become the opening prepaid balances below.

CREATE TABLE billing_accounts (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  included_credits BIGINT NOT NULL DEFAULT 0,
  -- "YYYY-MM" (UTC) of the last monthly roll of the included credits; '' before the first.
  included_month TEXT NOT NULL DEFAULT '',
  prepaid_credits BIGINT NOT NULL DEFAULT 0,
  monthly_budget_cents BIGINT NOT NULL DEFAULT 0,
  auto_top_up BIGINT NOT NULL DEFAULT 0,
  customer_id TEXT,
  payment_method_on_file BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- kind: included_grant, included_expiry, pack_purchase, metered_read, opening_balance.
-- bucket: included or prepaid. credits: signed. cents: money received (0 when none).
-- reference: the checkout session id, the month of a grant, the caller's reference of a charge.
-- The unique index makes a grant happen once per (organization, kind, reference);
-- rows without a reference (NULL) are never duplicates of each other.
CREATE TABLE credit_ledger (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  bucket TEXT NOT NULL,
  credits BIGINT NOT NULL,
  cents BIGINT NOT NULL DEFAULT 0,
  reference TEXT,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX credit_ledger_once ON credit_ledger (org_id, kind, reference);
CREATE INDEX credit_ledger_org_time ON credit_ledger (org_id, created_at);

-- Inbound payment events already handled (idempotency per event id).
CREATE TABLE billing_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  org_id TEXT,
  received_at BIGINT NOT NULL
);
CREATE INDEX billing_events_org ON billing_events (org_id);

INSERT INTO billing_accounts (org_id, included_credits, included_month, prepaid_credits, monthly_budget_cents,
                              auto_top_up, customer_id, payment_method_on_file, created_at, updated_at)
SELECT id, 0, '', prepaid_credits, 0, 0, NULL, 0, updated_at, updated_at FROM organizations
WHERE prepaid_credits <> 0;

INSERT INTO credit_ledger (id, org_id, kind, bucket, credits, cents, reference, created_at)
SELECT 'opening-' || id, id, 'opening_balance', 'prepaid', prepaid_credits, 0, 'migration 0020', updated_at
FROM organizations WHERE prepaid_credits <> 0;
