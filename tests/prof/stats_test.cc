// prof/stats.h on the hand-written fixtures (tests/prof/fixtures): each report's CSV
// against the expected file computed independently by fixtures/make_expected.py; the
// median/stdev definitions; the table format; the error cases.
#include "prof/stats.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace strata::prof {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path temp_path(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("strata_stats_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// Builds a database from SQL text; returns its path.
fs::path build_db(const std::string& name, const std::string& sql) {
  const fs::path path = temp_path(name);
  fs::remove(path);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
      << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
  return path;
}

class FixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureTest, CsvMatchesIndependentlyComputedExpectation) {
  const fs::path fixtures = STRATA_STATS_FIXTURES;
  const std::string fixture = GetParam();
  const fs::path db_path = build_db(fixture + ".sqlite", read_file(fixtures / (fixture + ".sql")));
  auto db = StatsDatabase::open(db_path.string());
  ASSERT_TRUE(db.ok()) << db.status().to_string();
  for (const StatsReportInfo& report : stats_reports()) {
    const fs::path expected = fixtures / (fixture + "." + report.name + ".expected.csv");
    auto table = (*db)->run(report.name);
    if (!fs::exists(expected)) {
      ASSERT_FALSE(table.ok()) << report.name << " should be skipped";
      EXPECT_EQ(table.status().code(), Code::kNotFound) << table.status().to_string();
      continue;
    }
    ASSERT_TRUE(table.ok()) << table.status().to_string();
    EXPECT_EQ(format_stats(*table, StatsFormat::kCsv), read_file(expected)) << report.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureTest, ::testing::Values("basic", "partial"));

const char* kRuntimeSchema =
    "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
    "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT "
    "NULL, "
    "returnValue INTEGER NOT NULL, callchainId INTEGER);";

// Median: middle value, mean of the two middle ones for an even count; stdev: sample.
TEST(StatsTest, MedianAndSampleStdDev) {
  const std::string sql =
      std::string(kRuntimeSchema) +
      "INSERT INTO StringIds VALUES (1, 'odd'), (2, 'even_v1234');"
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES "
      "(0, 10, 0, 1, 1, 1, 0, NULL), (0, 40, 0, 1, 2, 1, 0, NULL), (0, 20, 0, 1, 3, 1, 0, NULL),"
      "(0, 1, 0, 1, 4, 2, 0, NULL), (0, 2, 0, 1, 5, 2, 0, NULL), (0, 4, 0, 1, 6, 2, 0, NULL),"
      "(0, 8, 0, 1, 7, 2, 0, NULL);";
  auto db = StatsDatabase::open(build_db("median.sqlite", sql).string());
  ASSERT_TRUE(db.ok());
  auto table = (*db)->run("cuda_api_sum");
  ASSERT_TRUE(table.ok()) << table.status().to_string();
  ASSERT_EQ(table->rows.size(), 2u);
  // odd: 10, 20, 40 -> total 70, median 20, mean 70/3, stdev sqrt(((10-70/3)^2 + ...)/2)
  // = 15.275...
  EXPECT_EQ(table->rows[0][8].text, "odd");
  EXPECT_DOUBLE_EQ(table->rows[0][4].real, 20.0);
  EXPECT_DOUBLE_EQ(table->rows[0][3].real, 23.3);
  EXPECT_DOUBLE_EQ(table->rows[0][7].real, 15.3);
  // even: 1, 2, 4, 8 -> median (2 + 4) / 2 = 3; the _vNNNN suffix is stripped.
  EXPECT_EQ(table->rows[1][8].text, "even");
  EXPECT_DOUBLE_EQ(table->rows[1][4].real, 3.0);
}

TEST(StatsTest, TableFormatAlignsAndGroupsThousands) {
  StatsTable table;
  table.headers = {"Total Time (ns)", "Name"};
  StatsValue total{StatsValue::kInteger, "", 1234567, 0, 0};
  StatsValue name{StatsValue::kText, "k", 0, 0, 0};
  table.rows.push_back({total, name});
  EXPECT_EQ(format_stats(table, StatsFormat::kTable),
            " Total Time (ns)  Name\n"
            " ---------------  ----\n"
            "       1,234,567  k   \n");
  StatsValue text_with_comma{StatsValue::kText, "f(int, \"x\")", 0, 0, 0};
  table.rows[0][1] = text_with_comma;
  EXPECT_EQ(format_stats(table, StatsFormat::kCsv),
            "\"Total Time (ns)\",\"Name\"\n\"1234567\",\"f(int, \"\"x\"\")\"\n");
}

TEST(StatsTest, MissingFileIsFileNotFound) {
  auto db = StatsDatabase::open(temp_path("nope.sqlite").string());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Code::kFileNotFound);
}

TEST(StatsTest, NonSqliteFileIsInvalidValue) {
  const fs::path path = temp_path("text.sqlite");
  std::ofstream(path) << std::string(4096, 'x');
  auto db = StatsDatabase::open(path.string());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Code::kInvalidValue);
  EXPECT_NE(db.status().message().find("not an SQLite database"), std::string::npos)
      << db.status().message();
}

TEST(StatsTest, MissingTableNamesReportAndTable) {
  auto db = StatsDatabase::open(build_db("runtime_only.sqlite", kRuntimeSchema).string());
  ASSERT_TRUE(db.ok());
  auto kern = (*db)->run("cuda_gpu_kern_sum");
  ASSERT_FALSE(kern.ok());
  EXPECT_EQ(kern.status().code(), Code::kNotFound);
  EXPECT_NE(kern.status().message().find("cuda_gpu_kern_sum"), std::string::npos);
  EXPECT_NE(kern.status().message().find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos);
  auto unknown = (*db)->run("osrt_sum");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), Code::kInvalidValue);
  auto api = (*db)->run("cuda_api_sum");  // the table exists but is empty: no rows
  ASSERT_TRUE(api.ok());
  EXPECT_TRUE(api->rows.empty());
}

}  // namespace
}  // namespace strata::prof
