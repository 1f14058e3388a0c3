#include "compiler/jit/cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <fstream>
#include <thread>

#include "compiler/jit/cache_entry.h"

namespace strata::jit {
namespace {
namespace fs = std::filesystem;

class JitCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / fmt::format("strata-jit-cache-test-{}-{}", ::getpid(), info->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }

  static std::vector<uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }
  static std::string key(int i) { return make_cache_key(std::vector<std::string>{std::to_string(i)}, "b", "a", ""); }

  fs::path dir_;
};

TEST_F(JitCacheTest, MissThenHit) {
  JitCache cache(dir_);
  std::string k = key(1);
  auto miss = cache.lookup(k);
  ASSERT_TRUE(miss.ok());
  EXPECT_FALSE(miss->has_value());
  ASSERT_TRUE(cache.store(k, bytes("binary")).ok());
  auto hit = cache.lookup(k);
  ASSERT_TRUE(hit.ok());
  ASSERT_TRUE(hit->has_value());
  EXPECT_EQ(**hit, bytes("binary"));
  // Another cache object on the same directory (another process) sees it too.
  JitCache other(dir_);
  EXPECT_EQ(**other.lookup(k), bytes("binary"));
  // Replacing an entry.
  ASSERT_TRUE(cache.store(k, bytes("")).ok());
  EXPECT_EQ(**cache.lookup(k), bytes(""));
}

TEST_F(JitCacheTest, KeySensitivity) {
  std::vector<std::string> ptx = {"a", "bc"};
  std::string base = make_cache_key(ptx, "build", "arch", "-O3");
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(base, make_cache_key(ptx, "build", "arch", "-O3"));
  EXPECT_NE(base, make_cache_key(std::vector<std::string>{"ab", "c"}, "build", "arch", "-O3"));
  EXPECT_NE(base, make_cache_key(std::vector<std::string>{"a", "bc", ""}, "build", "arch", "-O3"));
  EXPECT_NE(base, make_cache_key(std::vector<std::string>{"abc"}, "build", "arch", "-O3"));
  EXPECT_NE(base, make_cache_key(ptx, "build2", "arch", "-O3"));
  EXPECT_NE(base, make_cache_key(ptx, "build", "arch2", "-O3"));
  EXPECT_NE(base, make_cache_key(ptx, "build", "arch", "-O2"));
  EXPECT_NE(make_cache_key(ptx, "ab", "c", ""), make_cache_key(ptx, "a", "bc", ""));
}

TEST_F(JitCacheTest, InvalidKeysAreErrors) {
  JitCache cache(dir_);
  for (const std::string& bad : std::vector<std::string>{"", "../x", "A", std::string(129, 'a'), "a/b"}) {
    EXPECT_EQ(cache.lookup(bad).status().code(), Code::kInvalidValue) << bad;
    EXPECT_EQ(cache.store(bad, bytes("x")).code(), Code::kInvalidValue) << bad;
  }
}

TEST_F(JitCacheTest, CorruptAndTruncatedEntriesAreMissesAndDeleted) {
  JitCache cache(dir_);
  std::string payload(1000, 'p');
  for (int mode = 0; mode < 4; ++mode) {
    std::string k = key(100 + mode);
    ASSERT_TRUE(cache.store(k, bytes(payload)).ok());
    fs::path path = dir_ / (k + ".sjc");
    ASSERT_TRUE(fs::exists(path));
    if (mode == 0) {  // flip a payload byte
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(kEntryHeaderSize + 500);
      f.put('q');
    } else if (mode == 1) {  // truncate the payload
      fs::resize_file(path, kEntryHeaderSize + 10);
    } else if (mode == 2) {  // truncate the header
      fs::resize_file(path, 20);
    } else {  // flip a magic byte
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(0);
      f.put('X');
    }
    auto result = cache.lookup(k);
    ASSERT_TRUE(result.ok());
    EXPECT_FALSE(result->has_value()) << mode;
    EXPECT_FALSE(fs::exists(path)) << mode;
    // The recompile path: storing again makes it a hit.
    ASSERT_TRUE(cache.store(k, bytes(payload)).ok());
    EXPECT_EQ(**cache.lookup(k), bytes(payload));
  }
}

TEST_F(JitCacheTest, EvictsLeastRecentlyUsed) {
  const size_t kPayload = 1000, kEntry = kPayload + kEntryHeaderSize;
  JitCache cache(dir_, /*max_bytes=*/3 * kEntry);
  std::vector<uint8_t> payload(kPayload, 7);
  ASSERT_TRUE(cache.store(key(0), payload).ok());
  ASSERT_TRUE(cache.store(key(1), payload).ok());
  ASSERT_TRUE(cache.store(key(2), payload).ok());
  // Make the ages unambiguous, then use entry 0 so that entry 1 is the LRU.
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) fs::last_write_time(dir_ / (key(i) + ".sjc"), old + std::chrono::seconds(i));
  ASSERT_TRUE((*cache.lookup(key(0))).has_value());
  ASSERT_TRUE(cache.store(key(3), payload).ok());
  EXPECT_TRUE((*cache.lookup(key(0))).has_value());
  EXPECT_FALSE((*cache.lookup(key(1))).has_value());
  EXPECT_TRUE((*cache.lookup(key(2))).has_value());
  EXPECT_TRUE((*cache.lookup(key(3))).has_value());
  // An entry larger than the bound is not stored.
  ASSERT_TRUE(cache.store(key(4), std::vector<uint8_t>(4 * kEntry)).ok());
  EXPECT_FALSE((*cache.lookup(key(4))).has_value());
}

TEST_F(JitCacheTest, UnwritableDirectoryDegradesToNoCaching) {
  if (::geteuid() == 0) {
    // root ignores permissions: use a path whose parent is a regular file instead.
    fs::create_directories(dir_);
    std::ofstream(dir_ / "file") << "x";
    JitCache cache(dir_ / "file" / "cache");
    EXPECT_TRUE(cache.store(key(1), bytes("x")).ok());
    EXPECT_FALSE(cache.enabled());
    EXPECT_FALSE((*cache.lookup(key(1))).has_value());
    return;
  }
  fs::create_directories(dir_);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  JitCache cache(dir_);
  EXPECT_TRUE(cache.store(key(1), bytes("x")).ok());
  EXPECT_FALSE(cache.enabled());
  EXPECT_FALSE((*cache.lookup(key(1))).has_value());
}

TEST_F(JitCacheTest, DisabledCacheAlwaysMisses) {
  JitCache cache{fs::path()};
  EXPECT_FALSE(cache.enabled());
  EXPECT_TRUE(cache.store(key(1), bytes("x")).ok());
  EXPECT_FALSE((*cache.lookup(key(1))).has_value());
}

TEST_F(JitCacheTest, FromEnvironment) {
  // Restore the environment the test runner set (STRATA_CACHE_DIR, HOME) afterwards.
  struct Saved {
    std::string name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* name : {"STRATA_CACHE_DIR", "STRATA_CACHE_MAX_BYTES", "HOME"}) {
    const char* value = std::getenv(name);
    saved.push_back({name, value ? std::optional<std::string>(value) : std::nullopt});
  }
  struct Restore {
    std::vector<Saved>* saved;
    ~Restore() {
      for (const Saved& s : *saved) {
        if (s.value) ::setenv(s.name.c_str(), s.value->c_str(), 1);
        else ::unsetenv(s.name.c_str());
      }
    }
  } restore{&saved};
  ::setenv("STRATA_CACHE_DIR", dir_.c_str(), 1);
  ::setenv("STRATA_CACHE_MAX_BYTES", "12345", 1);
  JitCache cache = JitCache::from_environment();
  EXPECT_EQ(cache.directory(), dir_);
  EXPECT_EQ(cache.max_bytes(), 12345u);
  ::setenv("STRATA_CACHE_MAX_BYTES", "lots", 1);
  EXPECT_EQ(JitCache::from_environment().max_bytes(), JitCache::kDefaultMaxBytes);
  ::unsetenv("STRATA_CACHE_DIR");
  ::unsetenv("STRATA_CACHE_MAX_BYTES");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(JitCache::from_environment().directory(), fs::path("/home/someone/.cache/strata"));
}

TEST_F(JitCacheTest, ConcurrentWritersAndReaders) {
  JitCache cache(dir_);
  constexpr int kThreads = 8, kRounds = 50, kKeys = 5;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        int k = (t + r) % kKeys;
        // Each key always maps to the same content, as with a deterministic compiler.
        std::vector<uint8_t> payload(2000 + k * 100, static_cast<uint8_t>(k));
        if (!cache.store(key(k), payload).ok()) ++bad;
        auto result = cache.lookup(key((k + 1) % kKeys));
        if (!result.ok()) ++bad;
        else if (result->has_value() && (**result).size() != static_cast<size_t>(2000 + ((k + 1) % kKeys) * 100)) ++bad;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(bad.load(), 0);
  for (int k = 0; k < kKeys; ++k) {
    auto result = cache.lookup(key(k));
    ASSERT_TRUE(result.ok() && result->has_value());
    EXPECT_EQ((**result).size(), static_cast<size_t>(2000 + k * 100));
  }
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(entry.path().filename().string().starts_with(".tmp-")) << entry.path();
  }
}

TEST_F(JitCacheTest, ConcurrentProcesses) {
  constexpr int kProcesses = 4, kKeys = 6;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      JitCache cache(dir_, /*max_bytes=*/4 * (3000 + kEntryHeaderSize));  // forces eviction races
      int failures = 0;
      for (int r = 0; r < 40; ++r) {
        int k = (p + r) % kKeys;
        std::vector<uint8_t> payload(3000, static_cast<uint8_t>(k));
        if (!cache.store(key(k), payload).ok()) ++failures;
        auto result = cache.lookup(key((k + 3) % kKeys));
        if (!result.ok()) ++failures;
        else if (result->has_value() && **result != std::vector<uint8_t>(3000, static_cast<uint8_t>((k + 3) % kKeys))) ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
}

}  // namespace
}  // namespace strata::jit
