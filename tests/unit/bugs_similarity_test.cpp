// Similar bugs (domain/triage/similarity.h): fingerprint prefix and title
// words, scored out of 100.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/bugs/domain/similarity.h"

TEST_CASE("similarity: title words are distinct lower-cased runs of two or more letters or digits") {
  CHECK(service::domain::bugs::TitleWords("Checkout: PAYMENT fails (checkout v2) a") ==
        std::vector<std::string>{"checkout", "payment", "fails", "v2"});
  CHECK(service::domain::bugs::TitleWords("").empty());
  CHECK(service::domain::bugs::TitleWords("!!! ? a b").empty());
}

TEST_CASE("similarity: fingerprint prefix up to 40 points plus 60 x title-word Jaccard") {
  struct Row {
    const char* fp_a;
    const char* title_a;
    const char* fp_b;
    const char* title_b;
    int score;
  };
  const Row rows[] = {
      {"aaaa000000000000", "Login broken", "bbbb000000000000", "Cart empty", 0},
      {"abcd000000000000", "Login broken", "abcd111111111111", "Cart empty", 40},
      {"abcd000000000000", "Login broken", "abce111111111111", "Cart empty", 30},
      {"a000000000000000", "x", "b000000000000000", "y", 0},
      {"0000000000000000", "Checkout payment fails", "1000000000000000", "Checkout payment slow", 30},  // 2/4
      {"0000000000000000", "Checkout payment fails", "1000000000000000", "checkout PAYMENT fails", 60},
      {"abcd000000000000", "Checkout payment fails", "abcd000000000000", "Checkout payment fails", 100},
      {"abcdef", "One two three", "abcxyz", "one", 30 + 20},  // 3 characters, 1/3 of the words
  };
  for (const Row& r : rows) {
    CAPTURE(r.title_a);
    CAPTURE(r.title_b);
    CHECK(service::domain::bugs::SimilarityScore(r.fp_a, r.title_a, r.fp_b, r.title_b) == r.score);
    CHECK(service::domain::bugs::SimilarityScore(r.fp_b, r.title_b, r.fp_a, r.title_a) ==
          r.score);  // symmetric
  }
}
