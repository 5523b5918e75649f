# mpiarena_add_plugin(<method> <sources>...)
#
# Builds one method plugin as a shared module named mpiarena_<method>.so with
# hidden visibility (so the exported aliases of two plugins never shadow each
# other) and links it to the plugin interface. Used in-tree and, through
# find_package(mpiarena), by third-party plugins.
function(mpiarena_add_plugin name)
  set(target mpiarena_${name})
  add_library(${target} MODULE ${ARGN})
  if(TARGET mpiarena::plugin)
    target_link_libraries(${target} PRIVATE mpiarena::plugin)
  else()
    target_link_libraries(${target} PRIVATE mpiarena_plugin)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(DEFINED MPIARENA_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${MPIARENA_PLUGIN_OUTPUT_DIR}
      INSTALL_RPATH "$ORIGIN/../..")
    install(TARGETS ${target} LIBRARY DESTINATION ${MPIARENA_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
