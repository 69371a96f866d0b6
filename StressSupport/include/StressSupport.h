// StressSupport: what the Stress executable needs from C (see TSanSuppressions.c). Nothing here is called from Swift.
#ifndef STRESS_SUPPORT_H
#define STRESS_SUPPORT_H

/// The suppressions ThreadSanitizer reads as it starts; a plain function without ThreadSanitizer.
const char *__tsan_default_suppressions(void);

#endif
