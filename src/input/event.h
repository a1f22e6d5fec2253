/*
 * event.h - the event record passed down the pipeline, one trace event at a
 * time, and the trace-level facts (metadata) read beside the events.
 *
 * A ts_event is a plain struct filled by the parser. Its strings (name) are
 * borrowed: valid only during the call that receives the event; a stage that
 * keeps one interns it. Numeric times are integer nanoseconds converted from
 * the number text, never through a double.
 */
#ifndef TS_EVENT_H
#define TS_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "input/base/warn.h"

/* Event categories we count; the order is the report order. */
typedef enum {
	TS_CAT_KERNEL,
	TS_CAT_GPU_MEMCPY,
	TS_CAT_GPU_MEMSET,
	TS_CAT_CPU_OP,
	TS_CAT_CUDA_RUNTIME,   /* CUDA and HIP runtime calls alike */
	TS_CAT_CUDA_DRIVER,
	TS_CAT_USER_ANNOTATION,
	TS_CAT_GPU_USER_ANNOTATION,
	TS_CAT_PYTHON_FUNCTION,
	TS_CAT_FLOW,           /* ac2g s/f: launch -> kernel links */
	TS_CAT_METADATA,       /* ph "M", whatever its cat */
	/* another accelerator's events (read, counted, not analysed) */
	TS_CAT_MTIA,           /* mtia_runtime, mtia_ccp_events, ... */
	TS_CAT_XPU,            /* Intel GPU: xpu_runtime, xpu_driver */
	TS_CAT_HPU,            /* Gaudi: hpu_op, ... */
	TS_CAT_PRIVATEUSE1,    /* an out-of-tree backend: privateuse1_runtime, ... */
	TS_CAT_OTHER,          /* instants, overhead, fwdbwd, Trace, no cat */
	TS_CAT_COUNT
} ts_cat;

/* The JSON key of each category in reports ("kernel", "gpu_memcpy", ...). */
const char *ts_cat_name(ts_cat cat);

/* Map a "cat" string to a category (TS_CAT_OTHER when unknown). */
ts_cat ts_cat_from(const char *s, size_t len);

/* Which optional fields an event carries (bits of ts_event.has). */
enum {
	TS_HAS_TS = 1u << 0,
	TS_HAS_DUR = 1u << 1,
	TS_HAS_PID = 1u << 2,
	TS_HAS_TID = 1u << 3,
	TS_HAS_ID = 1u << 4,
	TS_HAS_DEVICE = 1u << 5,
	TS_HAS_STREAM = 1u << 6,
	TS_HAS_CORRELATION = 1u << 7,
	TS_HAS_EXTERNAL_ID = 1u << 8,
	TS_HAS_BYTES = 1u << 9,
	TS_HAS_GRID = 1u << 10,
	TS_HAS_BLOCK = 1u << 11,
	TS_HAS_NAME = 1u << 12,
	TS_HAS_CAT = 1u << 13,
	TS_NAME_TRUNCATED = 1u << 14, /* name longer than the parser keeps */
	TS_HAS_DIMS = 1u << 15,       /* args "Input Dims" */
	TS_HAS_DTYPE = 1u << 16,      /* args "Input type" */
	TS_HAS_KERNEL = 1u << 17,     /* a runtime launch's args "kernel" (HIP) */
	TS_HAS_COLLECTIVE = 1u << 18, /* a CPU op's args "Collective name" (in kname) */
	TS_HAS_MSG = 1u << 19,        /* a collective's "In msg nelems" / "Out msg nelems" */
	TS_HAS_MEM = 1u << 20,        /* an allocator's [memory] args (ts_event.mem) */
};

/* The caching allocator's state after one allocation or free (a
 * "[memory]" instant of profile_memory=True): -1 where not given. */
typedef struct {
	int64_t allocated, reserved;  /* "Total Allocated", "Total Reserved" */
	int64_t bytes;                /* "Bytes": + allocated, - freed */
	int64_t device;               /* "Device Id" (-1: the CPU) */
	int64_t device_type;          /* "Device Type" (1: CUDA/HIP, 0: CPU) */
	int64_t addr;                 /* "Addr": the block allocated or freed */
} ts_mem_args;

#define TS_MAX_OPERANDS 8      /* Input Dims entries kept */
#define TS_MAX_CONCRETE 16     /* Concrete Inputs entries kept */
#define TS_MAX_RANK 6          /* dimensions kept per operand */
#define TS_DTYPE_MAX 24
#define TS_RANK_BAD 0xff       /* rank[] of an operand whose shape is unusable */

typedef struct {
	ts_cat cat;
	char ph;                 /* 'X', 'i', 's', 'f', 'M', ... or 0 */
	uint32_t has;            /* TS_HAS_* bits */
	const char *name;        /* borrowed; not NUL-terminated */
	size_t name_len;
	uint64_t name_hash;      /* ts_hash_bytes(name, name_len) where a worker
				  * made it (base/hash.h); 0: not made */
	const char *kname;       /* TS_HAS_KERNEL: the kernel a launch names;
				  * TS_HAS_COLLECTIVE: the collective of a
				  * record_param_comms op; borrowed */
	size_t kname_len;
	int64_t ts_ns, dur_ns;
	int64_t pid, tid;        /* string pid/tid ("Spans") leave TS_HAS_PID unset */
	int64_t id;              /* flow id */
	int64_t device, stream, correlation, external_id, bytes;
	/* TS_HAS_MSG: a collective kernel's message (Kineto's args "In msg
	 * nelems", "Out msg nelems", "Group size" and "dtype"); -1 / 0:
	 * not given */
	int64_t in_nelems, out_nelems;
	int32_t group_size;
	uint8_t elem_size;       /* bytes of its dtype, 0 unknown */
	int32_t grid[3], block[3];
	ts_mem_args mem;         /* TS_HAS_MEM */
	/* cpu_op shapes (record_shapes): operands past TS_MAX_OPERANDS are
	 * counted in noperands but not kept; an operand of rank past
	 * TS_MAX_RANK, or with a dimension that is not a whole number, has
	 * rank TS_RANK_BAD. A TensorList operand has rank 0, like a scalar. */
	uint8_t noperands;
	uint8_t rank[TS_MAX_OPERANDS];
	int64_t dims[TS_MAX_OPERANDS][TS_MAX_RANK];
	uint8_t ntypes;          /* "Input type" entries kept in dtype[] */
	char dtype[TS_MAX_OPERANDS][TS_DTYPE_MAX];  /* NUL-terminated */
	/* "Concrete Inputs": the whole-number and boolean scalar arguments
	 * among the first TS_MAX_CONCRETE (bit i of nconcrete: concrete[i] is
	 * set) */
	uint16_t nconcrete;
	int64_t concrete[TS_MAX_CONCRETE];
	uint64_t end_offset;     /* input offset just past the event (the parser's) */
} ts_event;

/* Platform of the traced GPUs. */
typedef enum {
	TS_PLATFORM_UNKNOWN,
	TS_PLATFORM_NVIDIA,
	TS_PLATFORM_AMD,
} ts_platform;

const char *ts_platform_name(ts_platform p);

#define TS_MAX_DEVPROPS 16
#define TS_DEVNAME_MAX 128

typedef struct {
	int64_t id;
	char name[TS_DEVNAME_MAX];
	int64_t sm_count, memory_bytes, warp_size;
	int64_t mp_count;       /* multiProcessorCount, where given */
	int64_t bad_sms;        /* a numSms no GPU has, set aside (0: none) */
	uint32_t has;           /* TS_DEV_HAS_* bits */
} ts_devprop;

/* Which fields of a device's properties the trace gave. */
enum {
	TS_DEV_HAS_ID = 1u << 0,
	TS_DEV_HAS_NAME = 1u << 1,
	TS_DEV_HAS_SMS = 1u << 2,
	TS_DEV_HAS_MEM = 1u << 3,
	TS_DEV_HAS_MPC = 1u << 5,
	TS_DEV_HAS_WARP = 1u << 4,
};

/* Which trace-level facts the trace gave. */
enum {
	TS_META_HAS_WORLD = 1u << 0,
	TS_META_HAS_RANK = 1u << 1,
	TS_META_HAS_BASE_TIME = 1u << 2,
};

/* Trace-level facts; any of them may arrive before or after traceEvents. */
typedef struct {
	ts_devprop dev[TS_MAX_DEVPROPS];
	int ndev;
	int devprops_dropped;       /* entries past TS_MAX_DEVPROPS */
	int nvidia_keys, amd_keys;  /* runtime-version keys seen */
	int64_t world_size, rank, base_time_ns;
	uint32_t has;               /* TS_META_HAS_* bits */
	int saw_trace_events;
	/* where traceEvents lies in the JSON text (for annotate): the bytes up
	 * to the end of its last whole event, and up to its closing ']' (0:
	 * not seen; the ']' is the byte before) */
	uint64_t last_event_end, events_close;
	uint64_t events_in_array;
} ts_meta;

/* The trace facts there was no room for, as warnings. */
void ts_meta_warnings(const ts_meta *m, ts_warns *w);

#endif
