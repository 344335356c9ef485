// Similarity of two bugs for GET /v1/bugs/:id/similar (Spec 1: "fingerprint-
// prefix and title-word overlap, scored out of 100"). Pure; safe from any
// thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace service::domain::bugs {

// Distinct title words: maximal runs of ASCII letters and digits of at
// least 2 characters, lower-cased, in order of first appearance.
std::vector<std::string> TitleWords(std::string_view title);

// 0-100: 10 points per shared leading fingerprint character, at most 40 (4
// characters), plus 60 x the Jaccard index of the two titles' word sets,
// rounded to the nearest integer.
int SimilarityScore(std::string_view fingerprint_a, std::string_view title_a, std::string_view fingerprint_b,
                    std::string_view title_b);

}  // namespace service::domain::bugs
