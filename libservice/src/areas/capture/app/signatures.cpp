#include "areas/capture/app/signatures.h"

#include <vector>

#include "areas/capture/domain/fingerprint.h"

namespace service::app::capture {

Result<BackfillResult> BackfillSignatures(const SignatureDeps& deps, const BackfillInput& in) {
  BackfillResult out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    out = BackfillResult{};
    SV_ASSIGN_OR_RETURN(std::vector<ports::StoredSignature> page,
                        deps.signatures->Page(tx, in.project_id, in.cursor, in.limit));
    const int64_t now = deps.clock->NowMillis();
    for (const ports::StoredSignature& s : page) {
      ++out.scanned;
      const size_t colon = s.signature ? s.signature->find(':') : std::string::npos;
      if (!s.signature || s.signature->starts_with("custom\x1f") || colon == std::string::npos) {
        ++out.skipped;
        continue;
      }
      const std::string_view text = *s.signature;
      const domain::capture::Fingerprint fp =
          domain::capture::ComputeFingerprint(text.substr(0, colon), text.substr(colon + 1), "");
      if (fp.signature.empty()) {
        ++out.skipped;
        continue;
      }
      if (fp.signature == *s.signature && s.signature_hash == fp.signature_hash &&
          s.group_key == fp.signature_hash) {
        ++out.unchanged;
        continue;
      }
      SV_RETURN_IF_ERROR(deps.signatures->Set(tx, s.bug_id, fp.signature, fp.signature_hash, now));
      ++out.updated;
    }
    if (static_cast<int64_t>(page.size()) == in.limit && !page.empty()) out.next_cursor = page.back().bug_id;
    return Status::Ok();
  }));
  return out;
}

}  // namespace service::app::capture
