// Text search primitives for GET /v1/bugs/search, without an external
// model. Pure; safe from any thread.
//
// Embedding: a signed feature-hashing vector of kEmbeddingDims int8 values.
// The text is lower-cased (ASCII) and split into words (maximal runs of
// letters and digits); each word contributes its whole form (weight 1) and
// the character trigrams of " word " (weight 0.5 each; "tap" gives " ta",
// "tap", "ap "). A feature's 64-bit FNV-1a hash picks the bucket (hash mod
// kEmbeddingDims) and the sign (the top bit). The sum is L2-normalised and
// quantised to round(x * 127). Texts sharing words or word pieces point the
// same way: cosine similarity ranks them.
//
// Trigram score: the share of the query's trigrams found in the text, the
// ranking of the trigram leg. Reciprocal-rank fusion combines the legs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::capture {

inline constexpr size_t kEmbeddingDims = 128;

// The text a bug is found by: its title, description and signature, one
// per line (the same text for both legs of the search).
std::string SearchText(std::string_view title, std::string_view description, std::string_view signature);

// A bug enters a leg's ranking only at or above the leg's floor: 60% of
// the query's trigrams (pg_trgm's default word_similarity threshold; "check"
// alone does not find "checkout"), or a cosine of 0.3 (unrelated texts of a few words
// land within about +-0.15 of zero with 128 signed buckets).
inline constexpr double kMinTrigramScore = 0.6;
inline constexpr double kMinCosine = 0.3;

std::vector<int8_t> Embed(std::string_view text);
// Lowercase hex, two characters per value (two's complement).
std::string EncodeEmbedding(std::span<const int8_t> v);
// nullopt unless exactly 2 * kEmbeddingDims hex characters.
std::optional<std::vector<int8_t>> DecodeEmbedding(std::string_view hex);
// In [-1, 1]; 0 when either vector is all zeros or the sizes differ.
double Cosine(std::span<const int8_t> a, std::span<const int8_t> b);

// |trigrams(query) ∩ trigrams(text)| / |trigrams(query)| over the
// lower-cased texts (trigrams of the whole string, spaces included); 0 for
// a query shorter than three characters.
double TrigramScore(std::string_view query, std::string_view text);
// The lower-cased trigrams of `text`, each once, in first-seen order.
std::vector<std::string> DistinctTrigrams(std::string_view text);
// TrigramScore with the query's DistinctTrigrams computed once by the caller.
double TrigramShare(std::span<const std::string> query_trigrams, std::string_view text);

// Reciprocal-rank fusion: each ranking (best first) adds 1 / (k + rank),
// rank counted from 1, to its keys' scores.
inline constexpr double kRrfK = 60.0;
std::map<std::string, double> FuseRanks(const std::vector<std::vector<std::string>>& rankings,
                                        double k = kRrfK);
// The same over rankings with ties: equal scores share a rank (competition
// ranking: 1, 2, 2, 4), so equal evidence fuses to equal scores.
struct RankedKey {
  std::string key;
  int64_t rank = 0;  // from 1
};
std::map<std::string, double> FuseRanks(const std::vector<std::vector<RankedKey>>& rankings,
                                        double k = kRrfK);

}  // namespace service::domain::capture
