// releaseFreedMemory(): gives the memory the C allocator holds free back to the system, on a thread of
// libuv's pool (not the event loop's). Why: glibc keeps memory freed in the middle of its arenas, and a
// feed index build frees hundreds of MB there at once (its worker thread's columns and scratch arrays):
// without this, the process that built the index kept ~50-60 MB per million rows of it resident (measured,
// bench/feed-index-rss), which every other process of the host, mapping the snapshot, does not.
// malloc_trim(0) walks every arena and returns its free pages (glibc >= 2.8); elsewhere it is a no-op.
#include "release_freed_memory.h"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
} release_job;

static void release_execute(napi_env env, void *data) {
  (void)env;
  (void)data;
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

static void release_complete(napi_env env, napi_status status, void *data) {
  (void)status;
  release_job *job = data;
  napi_value undefined;
  napi_get_undefined(env, &undefined);
  napi_resolve_deferred(env, job->deferred, undefined);
  napi_delete_async_work(env, job->work);
  free(job);
}

napi_value release_freed_memory(napi_env env, napi_callback_info info) {
  (void)info;
  release_job *job = calloc(1, sizeof *job);
  if (job == NULL) {
    napi_throw_error(env, NULL, "releaseFreedMemory: out of memory");
    return NULL;
  }
  napi_value promise, name;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "releaseFreedMemory", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, release_execute, release_complete, job, &job->work) != napi_ok) {
    free(job);
    return NULL;
  }
  if (napi_queue_async_work(env, job->work) != napi_ok) {
    napi_delete_async_work(env, job->work);
    free(job);
    return NULL;
  }
  return promise;
}
