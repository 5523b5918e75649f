# Includes name their room: a quoted include of the core's or the runner's
# headers is the header's path from the repository's top
# ("core/results/records.hpp", "runner/files/files.hpp"), so no new header
# can change what an include means (tests/lint/structure.py checks it).
#
# A target still sees only its own folders and those of the targets it
# links: its include directory is a tree of symbolic links in the build
# tree holding its own folders alone (rooms/<target>/core/results ->
# core/results), so an include that points up a layer or sideways does not
# compile (docs/architecture.md).
function(mpiarena_rooms target visibility)
  set(tree ${PROJECT_BINARY_DIR}/rooms/${target})
  foreach(dir ${ARGN})
    get_filename_component(parent ${tree}/${dir} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(REMOVE ${tree}/${dir})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${tree}/${dir} SYMBOLIC)
  endforeach()
  target_include_directories(${target} ${visibility}
                             $<BUILD_INTERFACE:${tree}>)
endfunction()
