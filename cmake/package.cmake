# geomint as an installed CMake package (docs/adding-an-integrator.md, "From your own CMake
# project"): `cmake --install build/release --prefix P` writes
#   P/include/geomint/         the header tree (geometry/, models/, integrators/, reference/,
#                              catalogue/, studies/, errors/, cli/), the generated headers
#                              (model_types.hpp, build_info.hpp, git_revision.hpp) and the promise
#                              suites' headers (tests/support/)
#   P/lib/                     the static libraries
#   P/lib/cmake/geomint/       geomintConfig.cmake and its version, the exported targets
#                              (geomint::<library without its geomint_ prefix>), and
#                              geomint_add_integrator()
#   P/share/geomint/           the model registry, the template of an added integrator's unit per
#                              model, and the main()s of the geomint program and the promise suites
# A project then needs find_package(geomint CONFIG REQUIRED) and one geomint_add_integrator() per
# integrator (cmake/geomint_add_integrator.cmake). The libraries are reused as built: the project
# compiles its own integrators only, once per registry model this build has.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GEOMINT_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/geomint)
set(GEOMINT_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/geomint)

# What an added integrator links: the libraries, with every target they link (geomint_warnings
# too, which the static libraries name for their link line only).
set(_exported geomint_headers geomint_warnings geomint_geometry geomint_models geomint_integrators
              geomint_reference geomint_catalogue geomint_metrics geomint_processes geomint_studies
              geomint_testing geomint_promise_suites geomint_cli)
foreach(target ${_exported})
  string(REGEX REPLACE "^geomint_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endforeach()
install(TARGETS ${_exported} EXPORT geomintTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT geomintTargets NAMESPACE geomint:: DESTINATION ${GEOMINT_PACKAGE_DIR})

foreach(dir geometry models integrators reference catalogue studies errors cli)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/geomint/${dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(DIRECTORY ${CMAKE_BINARY_DIR}/generated/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/geomint
        FILES_MATCHING PATTERN "*.hpp" PATTERN "integrators" EXCLUDE PATTERN "run" EXCLUDE)
install(DIRECTORY tests/support/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/geomint/tests/support
        FILES_MATCHING PATTERN "*.hpp")

install(FILES catalogue/model_registry.txt catalogue/added_on_model.cpp.in
        DESTINATION ${GEOMINT_SHARE_DIR})
install(FILES cli/main.cpp DESTINATION ${GEOMINT_SHARE_DIR} RENAME geomint_main.cpp)
install(FILES tests/catalogue/added_integrators_main.cpp DESTINATION ${GEOMINT_SHARE_DIR}
        RENAME promise_suites_main.cpp)

# The config names the dependencies as this build found them, and the registry's models as it
# compiled them (GEOMINT_MODELS may have kept only a few).
if(GEOMINT_SUNDIALS_PREFIX)
  set(GEOMINT_SUNDIALS_SEARCH "PATHS \"${GEOMINT_SUNDIALS_PREFIX}\" NO_DEFAULT_PATH")
endif()
configure_package_config_file(cmake/geomintConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/geomintConfig.cmake
  INSTALL_DESTINATION ${GEOMINT_PACKAGE_DIR}
  PATH_VARS GEOMINT_SHARE_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/geomintConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/geomintConfig.cmake
              ${CMAKE_BINARY_DIR}/package/geomintConfigVersion.cmake
              cmake/geomint_add_integrator.cmake cmake/promise_suite_tests.cmake
        DESTINATION ${GEOMINT_PACKAGE_DIR})
