# The test tiers (tests/README.md, "Tiers"): labels that say what a test
# needs and which pass runs it. Every ctest test carries exactly one kind:
#
#   unit      in process (GoogleTest; gtest_discover_tests labels them)
#   file      runs programs but starts no MPI job: file commands, lints,
#             builds without MPI (the e2e harness fails such a test if it
#             starts a launcher: MPIARENA_E2E_NO_LAUNCH)
#   mpi       starts MPI jobs
#
# and any of:
#
#   mpi-lib   its outcome can depend on the MPI library (methods,
#             collectives, watchdog and abort paths, clocks, window timing,
#             algorithms, start-up, one usage error per launcher): the
#             MPICH pass of scripts/test runs these (-L mpi-lib)
#   timing    it asserts a wall-clock bound or judges measured times: it
#             runs alone (RUN_SERIAL), the only tests that do
#   slow      it takes a minute or more: its COST (seconds, measured on the
#             2-core machines) makes ctest start it first
#   sanitize  the sanitizer build runs it too (scripts/sanitize), besides
#             the unit tests
#
# The inner loop is `ctest -L '^(unit|file)$'` (scripts/test --quick).
set(MPIARENA_TEST_KINDS unit file mpi)
set(MPIARENA_TEST_LABELS ${MPIARENA_TEST_KINDS} mpi-lib timing slow sanitize)

# mpiarena_tier(<label>... [COST <seconds>] TESTS <test>...): adds the
# labels to tests of the current directory; COST adds `slow` too.
function(mpiarena_tier)
  cmake_parse_arguments(arg "" "COST" "TESTS" ${ARGN})
  set(labels ${arg_UNPARSED_ARGUMENTS})
  if(arg_COST)
    list(APPEND labels slow)
  endif()
  foreach(label ${labels})
    if(NOT label IN_LIST MPIARENA_TEST_LABELS)
      message(FATAL_ERROR "mpiarena_tier: unknown label '${label}' "
                          "(known: ${MPIARENA_TEST_LABELS})")
    endif()
  endforeach()
  if(NOT arg_TESTS)
    message(FATAL_ERROR "mpiarena_tier(${labels}): no TESTS")
  endif()
  set_property(TEST ${arg_TESTS} APPEND PROPERTY LABELS ${labels})
  if(arg_COST)
    set_tests_properties(${arg_TESTS} PROPERTIES COST ${arg_COST})
  endif()
endfunction()

# mpiarena_check_tiers(): at the end of a directory's CMakeLists.txt. Every
# test of the directory must carry exactly one kind and a `slow` one a COST;
# `timing` tests are made RUN_SERIAL, and a RUN_SERIAL test that is not
# `timing` is refused (a test that bounds no time leaves the second core
# idle). A test declared without a tier fails the configure, naming it.
function(mpiarena_check_tiers)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} LABELS labels)
    if(NOT labels)
      set(labels "")
    endif()
    set(kinds "")
    foreach(label ${labels})
      if(label IN_LIST MPIARENA_TEST_KINDS)
        list(APPEND kinds ${label})
      endif()
    endforeach()
    list(LENGTH kinds n)
    if(NOT n EQUAL 1)
      message(FATAL_ERROR "test ${t}: labels '${labels}' carry ${n} kinds; "
        "exactly one of ${MPIARENA_TEST_KINDS} is needed (mpiarena_tier, "
        "tests/tiers.cmake; tests/README.md, Tiers)")
    endif()
    get_test_property(${t} RUN_SERIAL serial)
    if("timing" IN_LIST labels)
      set_tests_properties(${t} PROPERTIES RUN_SERIAL TRUE)
    elseif(serial)
      message(FATAL_ERROR "test ${t} is RUN_SERIAL but not labelled timing: "
        "only a test that bounds or judges a time runs alone (a shared "
        "resource is a RESOURCE_LOCK)")
    endif()
    get_test_property(${t} COST cost)
    if("slow" IN_LIST labels AND NOT cost)
      message(FATAL_ERROR "test ${t} is slow but has no COST")
    endif()
    if(kinds STREQUAL "file")
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT MPIARENA_E2E_NO_LAUNCH=1)
    endif()
    # MPICH's ranks poll while they wait (ch4:ucx, no yield): two MPI jobs
    # side by side on 2 cores slow each other more than running them in
    # turn (8 mpi-lib tests: 51 s with ctest -j1, 59 s with -j2; Open MPI,
    # whose ranks yield, 44 s and 33 s). An MPI test of the MPICH build
    # takes two processors: ctest -j2 runs it beside no other test.
    get_test_property(${t} PROCESSORS procs)
    if(kinds STREQUAL "mpi" AND MPIARENA_MPI STREQUAL "mpich" AND NOT procs)
      set_tests_properties(${t} PROPERTIES PROCESSORS 2)
    endif()
  endforeach()
endfunction()
