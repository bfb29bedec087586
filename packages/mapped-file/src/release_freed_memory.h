#ifndef RELEASE_FREED_MEMORY_H
#define RELEASE_FREED_MEMORY_H
#include <node_api.h>

napi_value release_freed_memory(napi_env env, napi_callback_info info);

#endif
