/*
 * limits.h - the bounds a run is made with: what the options may set and
 * the machines keep at most, whatever the trace (memory never grows past
 * them with the number of events).
 */
#ifndef TS_LIMITS_H
#define TS_LIMITS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t max_kernel_names;  /* distinct kernel names with their own row */
	size_t max_name_bytes;      /* bytes of kernel names kept */
	uint32_t max_devices;       /* devices with their own busy time */
	uint32_t busy_window;       /* intervals held per device (see busy.h) */
} ts_limits;

/* The defaults documented in README.md (agg.c). */
ts_limits ts_limits_default(void);

#define TS_MAX_LAYERS 1024      /* layers per pass with their own statistics */

#endif
