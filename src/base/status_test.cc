#include "base/status.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

StatusOr<int> half(int x) {
  if (x % 2 != 0) return error(Code::kInvalidValue, "odd");
  return x / 2;
}

Status quarter(int x, int* out) {
  ASSIGN_OR_RETURN(int h, half(x));
  ASSIGN_OR_RETURN(*out, half(h));
  return ok_status();
}

TEST(Status, PropagatesErrors) {
  int q = 0;
  EXPECT_TRUE(quarter(8, &q).ok());
  EXPECT_EQ(q, 2);
  Status s = quarter(6, &q);
  EXPECT_EQ(s.code(), Code::kInvalidValue);
  EXPECT_EQ(s.to_string(), "kInvalidValue: odd");
}

TEST(Status, OkStatusInStatusOrIsAnError) {
  StatusOr<int> v = ok_status();
  EXPECT_FALSE(v.ok());
}

}  // namespace
}  // namespace strata
