# dpa_add_gtest_set(<name> TARGET <exe> [FILTER <gtest filter>] [LABELS ...] [ENVIRONMENT ...])
#
# Registers every test of a GoogleTest executable that FILTER selects as its own CTest test,
# named <name>/<Suite>.<Test>, so that CTest counts each one and reports a GTEST_SKIP as
# "Skipped" (SKIP_REGULAR_EXPRESSION) instead of folding it into a passing whole-binary run.
# The list is taken when ctest starts (like gtest_discover_tests' PRE_TEST mode, which has no
# filter in CMake 3.18-3.25), so a rebuilt binary's new tests are picked up without
# reconfiguring. ENVIRONMENT applies to every test of the set.
set(_DPA_GTEST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/DpaGTestList.cmake)

function(dpa_add_gtest_set name)
  cmake_parse_arguments(A "" "TARGET;FILTER" "LABELS;ENVIRONMENT" ${ARGN})
  if(NOT A_FILTER)
    set(A_FILTER "*")
  endif()
  # Tests that re-execute their own binary or lower RLIMIT_AS cannot under qemu-user (no
  # binfmt here; the emulator's own mappings count against the limit): they skip, saying so.
  if(CMAKE_CROSSCOMPILING_EMULATOR)
    list(GET CMAKE_CROSSCOMPILING_EMULATOR 0 _emu)
    list(APPEND A_ENVIRONMENT "DPA_TEST_EMULATOR=${_emu}")
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${name}_tests.cmake")
  set(_inc "${CMAKE_CURRENT_BINARY_DIR}/${name}_include.cmake")
  # Lists are passed through a generated file: ENVIRONMENT and LABELS hold semicolons.
  set(_args "${CMAKE_CURRENT_BINARY_DIR}/${name}_args.cmake")
  file(GENERATE OUTPUT "${_args}" CONTENT
"set(SET_NAME [==[${name}]==])
set(EXE [==[$<TARGET_FILE:${A_TARGET}>]==])
set(EMULATOR [==[$<TARGET_PROPERTY:${A_TARGET},CROSSCOMPILING_EMULATOR>]==])
set(FILTER [==[${A_FILTER}]==])
set(LABELS [==[${A_LABELS}]==])
set(ENVIRONMENT [==[${A_ENVIRONMENT}]==])
set(OUT [==[${_out}]==])
")
  file(GENERATE OUTPUT "${_inc}" CONTENT
"if(EXISTS [==[$<TARGET_FILE:${A_TARGET}>]==])
  include([==[${_args}]==])
  include([==[${_DPA_GTEST_SCRIPT}]==])
  include([==[${_out}]==])
else()
  add_test([==[${name}/NOT_BUILT]==] [==[${name}-NOT_BUILT]==])
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${_inc}")
endfunction()
