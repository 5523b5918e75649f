// A shared library that is not an mpiarena plugin: one unrelated export.
extern "C" __attribute__((visibility("default"))) int unrelated_answer() {
  return 42;
}
