#include "areas/capture/domain/embedding.h"

#include <cmath>
#include <set>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 14695981039346656037ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

void AddFeature(std::vector<double>& acc, std::string_view feature, double weight) {
  const uint64_t h = Fnv1a(feature);
  acc[h % kEmbeddingDims] += (h >> 63) != 0 ? -weight : weight;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string SearchText(std::string_view title, std::string_view description, std::string_view signature) {
  std::string out;
  out.reserve(title.size() + description.size() + signature.size() + 2);
  out.append(title).append("\n").append(description).append("\n").append(signature);
  return out;
}

std::vector<int8_t> Embed(std::string_view input) {
  std::vector<double> acc(kEmbeddingDims, 0.0);
  std::string word;
  for (size_t i = 0; i <= input.size(); ++i) {
    const char c = i < input.size() ? input[i] : ' ';
    if (text::IsAlnum(c)) {
      word.push_back(text::LowerAscii(c));
      continue;
    }
    if (word.empty()) continue;
    AddFeature(acc, "w:" + word, 1.0);
    const std::string padded = " " + word + " ";
    for (size_t k = 0; k + 3 <= padded.size(); ++k) AddFeature(acc, padded.substr(k, 3), 0.5);
    word.clear();
  }
  double norm = 0;
  for (double x : acc) norm += x * x;
  norm = std::sqrt(norm);
  std::vector<int8_t> out(kEmbeddingDims, 0);
  if (norm == 0) return out;
  for (size_t i = 0; i < kEmbeddingDims; ++i)
    out[i] = static_cast<int8_t>(std::lround(acc[i] / norm * 127.0));
  return out;
}

std::string EncodeEmbedding(std::span<const int8_t> v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(v.size() * 2);
  for (int8_t x : v) {
    const auto b = static_cast<uint8_t>(x);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

std::optional<std::vector<int8_t>> DecodeEmbedding(std::string_view hex) {
  if (hex.size() != 2 * kEmbeddingDims) return std::nullopt;
  std::vector<int8_t> out(kEmbeddingDims);
  for (size_t i = 0; i < kEmbeddingDims; ++i) {
    const int hi = HexValue(hex[2 * i]);
    const int lo = HexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<int8_t>(static_cast<uint8_t>(hi * 16 + lo));
  }
  return out;
}

double Cosine(std::span<const int8_t> a, std::span<const int8_t> b) {
  if (a.size() != b.size()) return 0;
  int64_t dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += int64_t{a[i]} * b[i];
    na += int64_t{a[i]} * a[i];
    nb += int64_t{b[i]} * b[i];
  }
  if (na == 0 || nb == 0) return 0;
  return static_cast<double>(dot) / (std::sqrt(static_cast<double>(na)) * std::sqrt(static_cast<double>(nb)));
}

std::vector<std::string> DistinctTrigrams(std::string_view text) {
  const std::string lower = text::LowerAsciiCopy(text);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (size_t i = 0; i + 3 <= lower.size(); ++i) {
    std::string t = lower.substr(i, 3);
    if (seen.insert(t).second) out.push_back(std::move(t));
  }
  return out;
}

double TrigramShare(std::span<const std::string> query_trigrams, std::string_view text) {
  if (query_trigrams.empty()) return 0;
  // A trigram of the text is any three characters of it in a row: looking
  // each query trigram up in the lower-cased text needs no set of the
  // text's own (the search re-scores hundreds of candidates per query).
  const std::string t = text::LowerAsciiCopy(text);
  size_t shared = 0;
  for (const auto& g : query_trigrams) shared += t.find(g) != std::string::npos ? 1 : 0;
  return static_cast<double>(shared) / static_cast<double>(query_trigrams.size());
}

double TrigramScore(std::string_view query, std::string_view text) {
  return TrigramShare(DistinctTrigrams(query), text);
}

std::map<std::string, double> FuseRanks(const std::vector<std::vector<std::string>>& rankings, double k) {
  std::map<std::string, double> out;
  for (const auto& ranking : rankings) {
    for (size_t r = 0; r < ranking.size(); ++r) out[ranking[r]] += 1.0 / (k + static_cast<double>(r + 1));
  }
  return out;
}

std::map<std::string, double> FuseRanks(const std::vector<std::vector<RankedKey>>& rankings, double k) {
  std::map<std::string, double> out;
  for (const auto& ranking : rankings) {
    for (const RankedKey& r : ranking) out[r.key] += 1.0 / (k + static_cast<double>(r.rank));
  }
  return out;
}

}  // namespace service::domain::capture
