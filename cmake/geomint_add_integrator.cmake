# geomint_add_integrator(TARGET <name> HEADER <file> ENTRY <type>)
#
# In a project outside geomint that found an installed geomint (find_package(geomint CONFIG)):
# adds the catalogue entry <type> (geomint's catalogue/catalogue_entry.hpp), defined in <file>, to
# the catalogue of geomint's two programs in this project, which the first call makes:
#   geomint                  geomint's program (list, run, study, matrix, report, evoke), the
#                            entry among its integrators
#   geomint_promise_suites   geomint's promise suites on the entries added here, on every registry
#                            model they run on, as this directory's ctest tests
#                            (DeclaredOrder.<name>_on_<model>, ...; labelled order, conservation,
#                            manifold, longtime, as in geomint)
# <name> is an object library of one unit per registry model (from geomint's
# catalogue/added_on_model.cpp.in), each compiling the entry on its model alone and adding it to
# the catalogue while the program starts (catalogue/add_integrator.hpp); what the entry's header
# needs to compile (definitions, include folders) goes on <name>. docs/adding-an-integrator.md.
include(${CMAKE_CURRENT_LIST_DIR}/promise_suite_tests.cmake)
# The promise suites are ctest tests: ctest is enabled in the directory that finds geomint, and
# below it (enable_testing() takes effect in a directory's scope, not from within a function).
enable_testing()

function(geomint_add_integrator)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;HEADER;ENTRY" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "geomint_add_integrator: unexpected arguments '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  foreach(key TARGET HEADER ENTRY)
    if(NOT arg_${key})
      message(FATAL_ERROR "geomint_add_integrator: ${key} is missing "
                          "(geomint_add_integrator(TARGET <name> HEADER <file> ENTRY <type>))")
    endif()
  endforeach()
  get_filename_component(header ${arg_HEADER} ABSOLUTE)
  if(NOT EXISTS ${header})
    message(FATAL_ERROR "geomint_add_integrator: HEADER ${header} does not exist")
  endif()

  # The template's @stem@, @class@, @entry@ and @header@.
  set(entry ${arg_ENTRY})
  set(units)
  foreach(stem class IN ZIP_LISTS GEOMINT_MODEL_STEMS GEOMINT_MODEL_CLASSES)
    set(unit ${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}/${stem}.cpp)
    configure_file(${GEOMINT_SHARE_DIR}/added_on_model.cpp.in ${unit} @ONLY)
    list(APPEND units ${unit})
  endforeach()
  add_library(${arg_TARGET} OBJECT ${units})
  target_link_libraries(${arg_TARGET} PUBLIC geomint::catalogue)
  # As geomint compiles its own catalogue's units (its catalogue/CMakeLists.txt says why): else
  # GCC stops inlining before the model's vector field is inlined into the steps.
  target_compile_options(${arg_TARGET} PRIVATE
                         $<$<CXX_COMPILER_ID:GNU>:--param=inline-unit-growth=150>)

  if(NOT TARGET geomint)
    add_executable(geomint ${GEOMINT_SHARE_DIR}/geomint_main.cpp)
    target_link_libraries(geomint PRIVATE geomint::cli)
    add_executable(geomint_promise_suites ${GEOMINT_SHARE_DIR}/promise_suites_main.cpp)
    target_link_libraries(geomint_promise_suites PRIVATE geomint::promise_suites)
    geomint_discover_promise_suites(geomint_promise_suites)
  endif()
  # An object library's objects are linked whole: nothing refers to the units' AddedToCatalogue
  # objects, which a static library's would leave out.
  target_link_libraries(geomint PRIVATE ${arg_TARGET})
  target_link_libraries(geomint_promise_suites PRIVATE ${arg_TARGET})
endfunction()
