-- migration: integrations_retention
-- Retention sweeps (issue 32 item 4; README "Retention"): finished
-- deliveries by completion time, dead letters and event payloads by
-- creation time, and the deliveries naming an event (the payload is kept
-- while one does).
CREATE INDEX integration_deliveries_completed ON integration_deliveries(completed_at)
  WHERE completed_at IS NOT NULL;
CREATE INDEX integration_deliveries_event ON integration_deliveries(event_id);
CREATE INDEX delivery_dead_letters_created ON delivery_dead_letters(created_at);
CREATE INDEX delivery_events_created ON delivery_events(created_at);
