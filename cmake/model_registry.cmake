# Reads catalogue/model_registry.txt (one model a line: "<file stem> <class>") into
#   GEOMINT_MODEL_STEMS    the file stems, in registry order
#   GEOMINT_MODEL_CLASSES  the classes, in the same order
# and defines geomint_generate_per_model(<template> <output folder> <out var>), which configures
# the template once per model (with @stem@ and @class@ set) and returns the generated files.
# GEOMINT_MODELS, if set, keeps only the registry models it lists: a quick build of a few models
# (tests/docs/adding_a_model.sh builds the documented example and one other that way).
set(GEOMINT_MODELS "" CACHE STRING
    "Build only these models of catalogue/model_registry.txt (file stems; empty: every one)")
set(_registry ${CMAKE_SOURCE_DIR}/catalogue/model_registry.txt)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_registry})
file(STRINGS ${_registry} _lines REGEX "^[a-z]")
set(GEOMINT_MODEL_STEMS)
set(GEOMINT_MODEL_CLASSES)
foreach(line ${_lines})
  string(REGEX MATCH "^([a-z0-9_]+)[ \t]+([A-Za-z0-9_]+)[ \t]*$" _match "${line}")
  if(NOT _match)
    message(FATAL_ERROR "catalogue/model_registry.txt: expected '<file stem> <class>', got '${line}'")
  endif()
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/models/${CMAKE_MATCH_1}.hpp)
    message(FATAL_ERROR "catalogue/model_registry.txt: no models/${CMAKE_MATCH_1}.hpp")
  endif()
  list(APPEND _registered ${CMAKE_MATCH_1})
  if(GEOMINT_MODELS AND NOT CMAKE_MATCH_1 IN_LIST GEOMINT_MODELS)
    continue()
  endif()
  list(APPEND GEOMINT_MODEL_STEMS ${CMAKE_MATCH_1})
  list(APPEND GEOMINT_MODEL_CLASSES ${CMAKE_MATCH_2})
endforeach()
foreach(stem ${GEOMINT_MODELS})
  if(NOT stem IN_LIST _registered)
    message(FATAL_ERROR "GEOMINT_MODELS: '${stem}' is not a model of catalogue/model_registry.txt")
  endif()
endforeach()

function(geomint_generate_per_model template folder out_var)
  set(files)
  foreach(stem class IN ZIP_LISTS GEOMINT_MODEL_STEMS GEOMINT_MODEL_CLASSES)
    set(out ${folder}/${stem}.cpp)
    configure_file(${template} ${out} @ONLY)
    list(APPEND files ${out})
  endforeach()
  set(${out_var} ${files} PARENT_SCOPE)
endfunction()
