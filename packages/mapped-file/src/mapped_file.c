// mapFile(path): the whole file mapped read-only and shared (mmap PROT_READ, MAP_SHARED) as an
// ArrayBuffer. Every process that maps the same file reads the same page-cache pages, so a large
// read-only structure written once to a file costs its memory once per host, not once per process.
// The mapping lives as long as the ArrayBuffer: V8 calls the finalizer, which unmaps it, when the
// buffer is collected. Writing to the buffer is a fault (SIGSEGV): the memory is read-only.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release_freed_memory.h"

#define PATH_MAX_BYTES 4096

// A JS Error like Node's own for a failed system call: message "<syscall> <path>: <strerror>",
// with `errno` (the number) and `syscall`; the JS side adds `code` (the errno's name).
static void throw_system_error(napi_env env, const char *syscall, const char *path, int error) {
  char text[PATH_MAX_BYTES + 128];
  snprintf(text, sizeof text, "%s %s: %s", syscall, path, strerror(error));
  napi_value message, thrown, number, call;
  if (napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) != napi_ok) return;
  if (napi_create_error(env, NULL, message, &thrown) != napi_ok) return;
  if (napi_create_int32(env, error, &number) == napi_ok) napi_set_named_property(env, thrown, "errno", number);
  if (napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &call) == napi_ok)
    napi_set_named_property(env, thrown, "syscall", call);
  napi_throw(env, thrown);
}

static void unmap(napi_env env, void *data, void *length) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)length);
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  char path[PATH_MAX_BYTES];
  size_t path_length = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &path_length) != napi_ok) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "mapFile(path): path must be a string");
    return NULL;
  }
  if (path_length >= sizeof path - 1) {
    napi_throw_range_error(env, "ERR_INVALID_ARG_VALUE", "mapFile(path): path is too long");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw_system_error(env, "open", path, errno);
    return NULL;
  }
  struct stat status;
  if (fstat(fd, &status) != 0) {
    int error = errno;
    close(fd);
    throw_system_error(env, "fstat", path, error);
    return NULL;
  }
  napi_value result;
  if (status.st_size == 0) {
    // mmap refuses a length of 0: an empty file is an empty buffer.
    close(fd);
    void *unused;
    if (napi_create_arraybuffer(env, 0, &unused, &result) != napi_ok) return NULL;
    return result;
  }
  size_t length = (size_t)status.st_size;
  void *data = mmap(NULL, length, PROT_READ, MAP_SHARED, fd, 0);
  int error = errno;
  // The mapping holds its own reference to the file: the descriptor is not needed any more.
  close(fd);
  if (data == MAP_FAILED) {
    throw_system_error(env, "mmap", path, error);
    return NULL;
  }
  napi_status made = napi_create_external_arraybuffer(env, data, length, unmap, (void *)(uintptr_t)length, &result);
  if (made != napi_ok) {
    munmap(data, length);
    // e.g. napi_no_external_buffers_allowed in a runtime with the V8 sandbox on (Node itself has it off).
    const napi_extended_error_info *why = NULL;
    napi_get_last_error_info(env, &why);
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) {
      napi_throw_error(env, "ERR_MAPPED_FILE", why && why->error_message ? why->error_message
                                                                          : "mapFile: cannot wrap the mapping");
    }
    return NULL;
  }
  return result;
}

NAPI_MODULE_INIT() {
  napi_value function;
  if (napi_create_function(env, "mapFile", NAPI_AUTO_LENGTH, map_file, NULL, &function) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "mapFile", function) != napi_ok) return NULL;
  if (napi_create_function(env, "releaseFreedMemory", NAPI_AUTO_LENGTH, release_freed_memory, NULL, &function) !=
      napi_ok)
    return NULL;
  if (napi_set_named_property(env, exports, "releaseFreedMemory", function) != napi_ok) return NULL;
  return exports;
}
