// A malloc interposer for the benchmarks (Linux with glibc only).
//
// The executable defines malloc and friends; the dynamic linker then resolves every library's calls to them
// (the Swift runtime's swift_slowAlloc included) to these definitions, which count and forward to glibc's own
// entry points (__libc_malloc, ...), so there is no dlsym and no recursion. Counts are per thread, in plain
// thread-local integers: no atomics, so the hook costs about a nanosecond per call and every library pays the
// same. Byte tracking calls malloc_usable_size and is off unless a workload (B14) turns it on.

#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int64_t t_allocations;
static __thread int64_t t_frees;
static __thread int64_t t_net_bytes;
static __thread int t_track_bytes;

static inline void counted(void *pointer) {
  if (pointer == NULL) return;
  t_allocations += 1;
  if (t_track_bytes) t_net_bytes += (int64_t)malloc_usable_size(pointer);
}

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  counted(pointer);
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  counted(pointer);
  return pointer;
}

void *realloc(void *old, size_t size) {
  if (old != NULL) {
    t_frees += 1;
    if (t_track_bytes) t_net_bytes -= (int64_t)malloc_usable_size(old);
  }
  void *pointer = __libc_realloc(old, size);
  if (pointer == NULL && old != NULL && size != 0) {
    // The old block is still allocated: undo.
    t_frees -= 1;
    if (t_track_bytes) t_net_bytes += (int64_t)malloc_usable_size(old);
    return NULL;
  }
  counted(pointer);
  return pointer;
}

void free(void *pointer) {
  if (pointer != NULL) {
    t_frees += 1;
    if (t_track_bytes) t_net_bytes -= (int64_t)malloc_usable_size(pointer);
  }
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  counted(pointer);
  return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  counted(pointer);
  return pointer;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  counted(pointer);
  *result = pointer;
  return 0;
}

AllocationCounts allocation_counter_current_thread(void) {
  AllocationCounts counts = {t_allocations, t_frees, t_net_bytes};
  return counts;
}

void allocation_counter_track_bytes(int enabled) { t_track_bytes = enabled; }

int allocation_counter_is_available(void) { return 1; }

#else

AllocationCounts allocation_counter_current_thread(void) {
  AllocationCounts counts = {0, 0, 0};
  return counts;
}

void allocation_counter_track_bytes(int enabled) { (void)enabled; }

int allocation_counter_is_available(void) { return 0; }

#endif
