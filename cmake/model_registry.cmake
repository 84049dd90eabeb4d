# Reads catalogue/model_registry.txt (one model a line: "<file stem> <class>") into
#   GEOMINT_MODEL_STEMS    the file stems, in registry order
#   GEOMINT_MODEL_CLASSES  the classes, in the same order
# and defines geomint_generate_per_model(<template> <output folder> <out var>), which configures
# the template once per model (with @stem@ and @class@ set) and returns the generated files.
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
  list(APPEND GEOMINT_MODEL_STEMS ${CMAKE_MATCH_1})
  list(APPEND GEOMINT_MODEL_CLASSES ${CMAKE_MATCH_2})
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
