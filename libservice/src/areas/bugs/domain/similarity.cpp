#include "areas/bugs/domain/similarity.h"

#include <algorithm>
#include <cmath>

#include "areas/capture/domain/text.h"

namespace service::domain::bugs {

std::vector<std::string> TitleWords(std::string_view title) {
  std::vector<std::string> words;
  std::string w;
  for (size_t i = 0; i <= title.size(); ++i) {
    const char c = i < title.size() ? title[i] : ' ';
    if (text::IsAlpha(c) || (c >= '0' && c <= '9')) {
      w.push_back(text::LowerAscii(c));
      continue;
    }
    if (w.size() >= 2 && std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    w.clear();
  }
  return words;
}

int SimilarityScore(std::string_view fingerprint_a, std::string_view title_a, std::string_view fingerprint_b,
                    std::string_view title_b) {
  size_t prefix = 0;
  while (prefix < 4 && prefix < fingerprint_a.size() && prefix < fingerprint_b.size() &&
         fingerprint_a[prefix] == fingerprint_b[prefix]) {
    ++prefix;
  }
  const std::vector<std::string> a = TitleWords(title_a);
  const std::vector<std::string> b = TitleWords(title_b);
  size_t shared = 0;
  for (const auto& w : a) shared += std::find(b.begin(), b.end(), w) != b.end() ? 1 : 0;
  const size_t all = a.size() + b.size() - shared;
  const double jaccard = all == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(all);
  const int score = static_cast<int>(prefix) * 10 + static_cast<int>(std::lround(60.0 * jaccard));
  return std::clamp(score, 0, 100);
}

}  // namespace service::domain::bugs
