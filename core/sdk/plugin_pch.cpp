// The translation unit that builds the plugins' precompiled plugin.hpp
// (core/CMakeLists.txt, MPIARENA_PLUGIN_PCH); it has no code of its own.
