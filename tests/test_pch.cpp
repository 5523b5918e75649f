// The translation unit that builds the unit tests' precompiled header
// (tests/CMakeLists.txt, mpiarena_test_pch); it has no code of its own.
