# mpiarena_add_plugin(<method> <source>... [INSTALL])
#
# Builds one method plugin as a shared module named mpiarena_<method>.so
# (target mpiarena_<method>) with hidden visibility (so the exported aliases
# of two plugins never shadow each other) and links it to mpiarena::plugin.
# Used in-tree and, through find_package(mpiarena), by third-party plugins.
#
# INSTALL: an install rule into ${MPIARENA_PLUGIN_INSTALL_DIR}, relative to
# the install prefix (lib/mpiarena/plugins), where the installed runner looks
# for plugins: `cmake --install <build> --prefix <mpiarena's prefix>` makes
# the plugin one the runner finds with no MPIARENA_PLUGIN_PATH. The
# installed module's RUNPATH finds libmpiarena from there ($ORIGIN-relative)
# and, for another prefix, in the package's own library directory.
# In-tree plugins are always installed (MPIARENA_INSTALL_PLUGINS).
#
# MPIARENA_PLUGIN_OUTPUT_DIR, when set, is where the module is built (in-tree:
# the build tree's lib/mpiarena/plugins, next to the runner).
function(mpiarena_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INSTALL" "" "")
  if(NOT arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mpiarena_add_plugin(${name}): no source file")
  endif()
  set(target mpiarena_${name})
  add_library(${target} MODULE ${arg_UNPARSED_ARGUMENTS})
  target_link_libraries(${target} PRIVATE mpiarena::plugin)
  # Every plugin of the project, for an aggregate target (in-tree:
  # mpiarena_programs, what scripts/demo builds).
  set_property(GLOBAL APPEND PROPERTY MPIARENA_PLUGIN_TARGETS ${target})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(DEFINED MPIARENA_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${MPIARENA_PLUGIN_OUTPUT_DIR})
  endif()
  # In-tree: plugin.hpp precompiled once (core/CMakeLists.txt).
  if(TARGET mpiarena_plugin_pch)
    target_precompile_headers(${target} REUSE_FROM mpiarena_plugin_pch)
  endif()
  if(arg_INSTALL OR MPIARENA_INSTALL_PLUGINS)
    # From <prefix>/<plugin dir> to <prefix>/<libdir>, e.g. $ORIGIN/../..
    set(rpath "")
    if(NOT IS_ABSOLUTE "${MPIARENA_PLUGIN_INSTALL_DIR}")
      file(RELATIVE_PATH up "/${MPIARENA_PLUGIN_INSTALL_DIR}"
           "/${MPIARENA_LIBRARY_INSTALL_DIR}")
      string(REGEX REPLACE "/$" "" up "${up}")
      list(APPEND rpath "$ORIGIN/${up}")
    endif()
    # Out of tree, also the package's own library directory (a plugin
    # installed into another prefix).
    if(DEFINED MPIARENA_LIBRARY_DIR)
      list(APPEND rpath "${MPIARENA_LIBRARY_DIR}")
    endif()
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "${rpath}")
    install(TARGETS ${target} LIBRARY DESTINATION ${MPIARENA_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
