#ifndef ASYNCSIGNALS_BENCHMARKS_ALLOCATION_COUNTER_H
#define ASYNCSIGNALS_BENCHMARKS_ALLOCATION_COUNTER_H

#include <stdint.h>

/// The allocations made and freed by the calling thread since it started, and the net bytes it allocated while
/// byte tracking was on.
typedef struct {
  int64_t allocations;
  int64_t frees;
  int64_t netBytes;
} AllocationCounts;

/// The calling thread's counts. Only the thread's own malloc/calloc/realloc/posix_memalign/aligned_alloc/memalign
/// calls are counted: a workload that allocates on other threads is not fully seen.
AllocationCounts allocation_counter_current_thread(void);

/// Turns byte tracking (malloc_usable_size of every block allocated and freed) on or off for the calling thread.
void allocation_counter_track_bytes(int enabled);

/// Whether this build replaces malloc (Linux with glibc); elsewhere every count stays at zero.
int allocation_counter_is_available(void);

#endif
