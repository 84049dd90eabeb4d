// Label `unit`: the lists projects outside geomint add integrators to (catalogue/added_list.hpp):
// the added items come after geomint's own in the order of their names, whatever order the
// program's units added them in; a name taken twice is refused, by a built-in or by another
// added item; and an item added after the list was read is refused, not lost.

#include <gtest/gtest.h>

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/added_list.hpp"

namespace geomint {
namespace {

std::string_view name_of(const std::string& s) { return s; }

std::vector<std::string> merged(const std::vector<std::string>& builtin,
                                const std::vector<std::string>& added) {
  return with_added<std::string>(builtin, added, name_of);
}

TEST(AddedList, AddedItemsFollowTheBuiltInOnesByName) {
  EXPECT_EQ(merged({"rk4", "rk2"}, {"heun", "another", "midpoint"}),
            (std::vector<std::string>{"rk4", "rk2", "another", "heun", "midpoint"}));
  EXPECT_EQ(merged({"rk4", "rk2"}, {}), (std::vector<std::string>{"rk4", "rk2"}));
}

TEST(AddedList, ANameTakenTwiceIsRefused) {
  EXPECT_THROW(merged({"rk4", "rk2"}, {"heun", "rk4"}), std::logic_error);
  EXPECT_THROW(merged({"rk4"}, {"heun", "heun"}), std::logic_error);
  try {
    merged({"rk4"}, {"rk4"});
    ADD_FAILURE() << "rk4 added twice is not refused";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("'rk4'"), std::string::npos) << e.what();
  }
}

TEST(AddedList, AnItemAddedAfterTheListWasReadIsRefused) {
  AddedList<std::string> list;
  list.add("heun");
  EXPECT_TRUE(list.contains([](const std::string& s) { return s == "heun"; }));
  list.add("midpoint");  // contains() does not fix the list
  EXPECT_EQ(list.read(), (std::vector<std::string>{"heun", "midpoint"}));
  EXPECT_THROW(list.add("late"), std::logic_error);
  EXPECT_EQ(list.read().size(), 2u);
}

}  // namespace
}  // namespace geomint
