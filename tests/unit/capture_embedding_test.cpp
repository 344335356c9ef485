// Search primitives (domain/triage/embedding.h): the library's text
// embedding, trigram scores and reciprocal-rank fusion.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "areas/capture/domain/embedding.h"

TEST_CASE("embedding: deterministic, normalised, case-insensitive") {
  const std::vector<int8_t> a = service::domain::capture::Embed("Checkout button does nothing");
  REQUIRE(a.size() == service::domain::capture::kEmbeddingDims);
  CHECK(a == service::domain::capture::Embed("Checkout button does nothing"));
  CHECK(a == service::domain::capture::Embed("CHECKOUT   button, does nothing!"));
  double norm = 0;
  for (int8_t x : a) norm += static_cast<double>(x) * x;
  CHECK(std::sqrt(norm) == doctest::Approx(127).epsilon(0.03));
  const std::vector<int8_t> empty = service::domain::capture::Embed("  ,;  ");
  CHECK(empty == std::vector<int8_t>(service::domain::capture::kEmbeddingDims, 0));
  CHECK(service::domain::capture::Cosine(a, empty) == 0);
}

TEST_CASE("embedding: related texts are closer than unrelated ones") {
  const auto query = service::domain::capture::Embed("checkout payment failed");
  const double related =
      service::domain::capture::Cosine(query, service::domain::capture::Embed("Payment fails at checkout"));
  const double partial =
      service::domain::capture::Cosine(query, service::domain::capture::Embed("Checkout page slow"));
  const double unrelated = service::domain::capture::Cosine(
      query, service::domain::capture::Embed("Avatar upload rotates the image"));
  CHECK(related > partial);
  CHECK(partial > unrelated);
  CHECK(service::domain::capture::Cosine(query, query) == doctest::Approx(1.0));
}

TEST_CASE("embedding: hex round trip, wrong length or characters are refused") {
  const auto v = service::domain::capture::Embed("TypeError: x is undefined");
  const std::string hex = service::domain::capture::EncodeEmbedding(v);
  CHECK(hex.size() == 2 * service::domain::capture::kEmbeddingDims);
  CHECK(service::domain::capture::DecodeEmbedding(hex) == std::optional<std::vector<int8_t>>(v));
  CHECK_FALSE(service::domain::capture::DecodeEmbedding(hex.substr(2)));
  std::string bad = hex;
  bad[0] = 'g';
  CHECK_FALSE(service::domain::capture::DecodeEmbedding(bad));
  CHECK(service::domain::capture::EncodeEmbedding(std::vector<int8_t>{-1, 0, 127, -128}) == "ff007f80");
}

TEST_CASE("trigram score: the share of the query's trigrams in the text") {
  CHECK(service::domain::capture::TrigramScore("cart", "Cart is empty") == doctest::Approx(1.0));
  CHECK(service::domain::capture::TrigramScore("card", "Cart is empty") ==
        doctest::Approx(0.5));  // "car" of "car", "ard"
  CHECK(service::domain::capture::TrigramScore("zzz", "Cart is empty") == 0);
  CHECK(service::domain::capture::TrigramScore("ca", "Cart") == 0);  // shorter than a trigram
}

TEST_CASE("reciprocal-rank fusion adds 1 / (k + rank) per ranking") {
  const auto fused = service::domain::capture::FuseRanks({{"a", "b", "c"}, {"b", "d"}});
  CHECK(fused.at("a") == doctest::Approx(1.0 / 61));
  CHECK(fused.at("b") == doctest::Approx(1.0 / 62 + 1.0 / 61));
  CHECK(fused.at("c") == doctest::Approx(1.0 / 63));
  CHECK(fused.at("d") == doctest::Approx(1.0 / 62));
  CHECK(fused.at("b") > fused.at("a"));
}

TEST_CASE("reciprocal-rank fusion with ties: equal ranks fuse to equal scores") {
  using service::domain::capture::RankedKey;
  const auto fused = service::domain::capture::FuseRanks(std::vector<std::vector<RankedKey>>{
      {{"a", 1}, {"b", 1}, {"c", 3}},
      {{"b", 1}, {"a", 2}},
  });
  CHECK(fused.at("a") == doctest::Approx(1.0 / 61 + 1.0 / 62));
  CHECK(fused.at("b") == doctest::Approx(2.0 / 61));
  CHECK(fused.at("c") == doctest::Approx(1.0 / 63));
}
