{
  "targets": [
    {
      "target_name": "mapped_file",
      "sources": ["src/mapped_file.c", "src/release_freed_memory.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wall", "-Wextra", "-O2"]
    }
  ]
}
