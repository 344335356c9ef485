// Retention of the integrations area's rows (README "Retention").
#include "app/retention.h"

#include "areas/integrations/app/integrations.h"

namespace service::app::integrations {

Result<RetentionSwept> SweepRetention(const IntegrationsDeps& deps, int64_t batch_rows) {
  ports::IntegrationRepository* repo = deps.integrations;
  const int64_t now = deps.Now();
  RetentionSwept out;
  const int64_t delivered_before = now - deps.retention.deliveries_ms;
  SV_ASSIGN_OR_RETURN(out.deliveries, SweepInBatches(*deps.db, batch_rows, [&](ports::Tx& tx, int64_t limit) {
                        return repo->DeleteFinishedDeliveries(tx, delivered_before, limit);
                      }));
  const int64_t dead_before = now - deps.retention.dead_letters_ms;
  SV_ASSIGN_OR_RETURN(out.dead_letters,
                      SweepInBatches(*deps.db, batch_rows, [&](ports::Tx& tx, int64_t limit) {
                        return repo->DeleteDeadLetters(tx, dead_before, limit);
                      }));
  SV_ASSIGN_OR_RETURN(out.events, SweepInBatches(*deps.db, batch_rows, [&](ports::Tx& tx, int64_t limit) {
                        return repo->DeleteUnusedEvents(tx, delivered_before, limit);
                      }));
  return out;
}

}  // namespace service::app::integrations
