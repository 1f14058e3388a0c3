// Deterministic mutation fuzzing of the golden PTX files: truncations, deleted,
// duplicated and swapped tokens, and random bytes. The parser must never crash or hang,
// and every error must carry "name:line:col: ".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "compiler/ptx/lexer.h"
#include "compiler/ptx/parser.h"

namespace strata::ptx {
namespace {

struct Golden {
  std::string name;
  std::string text;
};

std::vector<Golden> load_goldens() {
  std::vector<Golden> out;
  for (const auto& entry : std::filesystem::directory_iterator(STRATA_PTX_GOLDEN_DIR)) {
    if (entry.path().extension() != ".ptx") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    out.push_back({entry.path().filename().string(), buffer.str()});
  }
  std::sort(out.begin(), out.end(), [](const Golden& a, const Golden& b) { return a.name < b.name; });
  return out;
}

// Byte ranges of the tokens of `text` (which must lex).
std::vector<std::pair<size_t, size_t>> token_spans(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  StatusOr<std::vector<Token>> tokens = tokenize(text, "x");
  if (!tokens.ok()) return spans;
  for (const Token& token : *tokens) {
    if (token.kind == TokenKind::kEnd) break;
    size_t begin = static_cast<size_t>(token.text.data() - text.data());
    spans.emplace_back(begin, begin + token.text.size());
  }
  return spans;
}

void check(const std::string& name, const std::string& text, int* errors) {
  StatusOr<Module> module = parse_ptx(text, name);
  if (module.ok()) return;
  ++*errors;
  ASSERT_EQ(module.status().code(), Code::kInvalidPtx);
  static const std::regex kLocated("^[^:]+\\.ptx:[0-9]+:[0-9]+: .+");
  ASSERT_TRUE(std::regex_search(module.status().message(), kLocated)) << module.status().message();
}

TEST(FuzzTest, MutationsNeverCrashAndErrorsAreLocated) {
  std::vector<Golden> goldens = load_goldens();
  ASSERT_FALSE(goldens.empty());
  std::mt19937_64 rng(0x5eed);
  int runs = 0, errors = 0;
  for (const Golden& golden : goldens) {
    auto spans = token_spans(golden.text);
    ASSERT_FALSE(spans.empty()) << golden.name;
    auto pick = [&] { return spans[rng() % spans.size()]; };
    for (int i = 0; i < 600; ++i) {
      std::string text = golden.text;
      switch (i % 6) {
        case 0:  // truncate
          text.resize(rng() % (text.size() + 1));
          break;
        case 1: {  // delete a token
          auto [b, e] = pick();
          text.erase(b, e - b);
          break;
        }
        case 2: {  // duplicate a token
          auto [b, e] = pick();
          text.insert(b, text.substr(b, e - b) + " ");
          break;
        }
        case 3: {  // swap two tokens
          auto first = pick(), second = pick();
          if (first.first > second.first) std::swap(first, second);
          if (first.second > second.first) break;
          std::string a = text.substr(first.first, first.second - first.first);
          std::string b = text.substr(second.first, second.second - second.first);
          text.replace(second.first, b.size(), a);
          text.replace(first.first, a.size(), b);
          break;
        }
        case 4: {  // random bytes
          int count = 1 + static_cast<int>(rng() % 4);
          for (int j = 0; j < count && !text.empty(); ++j) text[rng() % text.size()] = static_cast<char>(rng());
          break;
        }
        case 5: {  // a punctuation token replaced by another
          static constexpr std::string_view kPunct = "{}[](),;:@!|<>+-=";
          auto [b, e] = pick();
          text.replace(b, e - b, std::string(1, kPunct[rng() % kPunct.size()]));
          break;
        }
      }
      check(golden.name, text, &errors);
      if (::testing::Test::HasFatalFailure()) return;
      ++runs;
    }
  }
  EXPECT_GE(runs, 6000);
  EXPECT_GT(errors, runs / 4);  // most mutations must be rejected, not silently accepted
}

}  // namespace
}  // namespace strata::ptx
