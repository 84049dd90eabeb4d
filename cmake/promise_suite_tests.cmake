# geomint_discover_promise_suites(<program>): the cases of a program running the promise suites
# (tests/support/catalogue_suites.hpp) as ctest tests, each labelled by its suite's folder in
# geomint's tests/ (order, manifold, longtime, conservation). Shared by geomint's catalogue program
# (tests/catalogue) and the one geomint_add_integrator() makes in a project outside geomint, so
# that a case has the same name and label in both.
include(GoogleTest)

function(geomint_discover_promise_suites program)
  gtest_discover_tests(${program} TEST_FILTER "DeclaredOrder.*"
                       PROPERTIES LABELS order DISCOVERY_TIMEOUT 120)
  gtest_discover_tests(${program} TEST_FILTER "StaysOnManifold.*"
                       PROPERTIES LABELS manifold DISCOVERY_TIMEOUT 120)
  gtest_discover_tests(${program} TEST_FILTER "LongTimePromises.*"
                       PROPERTIES LABELS longtime DISCOVERY_TIMEOUT 120)
  gtest_discover_tests(${program} TEST_FILTER "-DeclaredOrder.*:StaysOnManifold.*:LongTimePromises.*"
                       PROPERTIES LABELS conservation DISCOVERY_TIMEOUT 120)
endfunction()
