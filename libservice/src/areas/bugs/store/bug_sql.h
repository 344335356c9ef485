// SQL pieces shared by the repositories that read bugs (bug_read_repository,
// bug_insight_repository): the bug row's columns and joins, its decoding,
// and the WHERE clause of ports::BugFilter. Written once for both backends.
#pragma once

#include <string>
#include <vector>

#include "areas/bugs/ports/bug_read_repository.h"
#include "areas/capture/store/capture_sql.h"
#include "store/database.h"

namespace service::store {

// The columns of ports::BugRecord, in BugFromRow's order, over kBugFrom.
extern const char* const kBugColumns;
// " FROM bugs b JOIN projects p ON ...".
extern const char* const kBugFrom;
// A condition over `b`: its assignee is an active member of its organization.
extern const char* const kActiveAssignee;
ports::BugRecord BugFromRow(const Rows& r, size_t i);
// `s` lower-cased for LIKE with '\' as the escape character, inside %...%.
std::string LikeContains(const std::string& s);
// " WHERE ..." for `f` over bugs `b` (kBugFrom or FROM bugs b), appending its parameters.
std::string Where(const ports::BugFilter& f, std::vector<Value>& params);
// The filter over bug_tallies `t` (migration 0010): false when the filter
// names something the tallies do not keep (text, platform, bug ids).
bool TallyWhere(const ports::BugFilter& f, std::string* where, std::vector<Value>* params);
// " AND ..." selecting bugs `b` of a deliveryFeed ("" for all).
std::string FeedClause(const std::string& feed);
// "?, ?, ..." for n parameters.
std::string Placeholders(size_t n);

}  // namespace service::store
