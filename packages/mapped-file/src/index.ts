import { createRequire } from 'node:module';
import { constants } from 'node:os';

/**
 * Node has no mmap. The npm packages that offer one could not be installed here: mmap-io 1.1.7
 * does not compile against Node 20's headers (no -std=c++17), @riaskov/mmap-io 1.4.3 and
 * bufferfromfile 0.4.377 first download a prebuilt binary from outside the npm registry
 * (node-pre-gyp), shmmap 1.0.0 wraps mmap-io 1.1.7. So this is a C file of ~100 lines on Node-API
 * (src/mapped_file.c), built by node-gyp when npm installs the workspace.
 */
interface MappedFileBinding {
  mapFile(path: string): ArrayBuffer;
  releaseFreedMemory(): Promise<void>;
}

let binding: MappedFileBinding | undefined;

/** Loaded at first use, so a process that maps nothing does not need the addon built. */
function loadBinding(): MappedFileBinding {
  if (binding) return binding;
  const load = createRequire(import.meta.url);
  try {
    binding = load('../build/Release/mapped_file.node') as MappedFileBinding;
  } catch (error) {
    throw new Error(
      'The mapped-file addon is not built (npm ci builds it with node-gyp in packages/mapped-file; `npm rebuild @repo/mapped-file` builds it again)',
      { cause: error },
    );
  }
  return binding;
}

const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, number]) => [number, name]));

/**
 * The whole file at `path` mapped read-only and shared: an ArrayBuffer over the page cache's pages
 * of the file (no copy; every process mapping the file reads the same pages). Unmapped when the
 * buffer is garbage-collected. The buffer must never be written: its pages are read-only and a
 * write kills the process (SIGSEGV). Replacing the file by a rename, or unlinking it, leaves a
 * mapping as it was; truncating a mapped file makes reads past the new end fault, so files meant
 * for mapping are only ever replaced, never rewritten in place.
 * Throws like Node's fs calls: `code` (ENOENT …), `errno`, `syscall`.
 */
export function mapFile(path: string): ArrayBuffer {
  try {
    return loadBinding().mapFile(path);
  } catch (error) {
    if (error instanceof Error && typeof (error as NodeJS.ErrnoException).errno === 'number') {
      const failed = error as NodeJS.ErrnoException;
      failed.code = ERRNO_NAMES.get(failed.errno!) ?? 'EUNKNOWN';
      failed.path = path;
    }
    throw error;
  }
}

/**
 * Gives the memory the C allocator holds free back to the system (glibc's malloc_trim, on a thread
 * of libuv's pool: the event loop goes on meanwhile; a no-op where the C library is not glibc). For
 * after a large, short-lived allocation such as a feed index build: glibc keeps what was freed in
 * the middle of its arenas resident otherwise (release_freed_memory.c says what it measured).
 */
export function releaseFreedMemory(): Promise<void> {
  return loadBinding().releaseFreedMemory();
}
