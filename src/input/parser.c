/*
 * parser.c - the yajl callbacks: Kineto JSON in, one ts_event at a time
 * out, with no allocation per event (see parser.h; the driver in
 * parser_feed.c, through parser_int.h).
 */
#include "input/parser_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "input/magic.h"
#include "input/numtext.h"


#define KEY_IS(lit) (len == sizeof(lit) - 1 && memcmp(s, lit, len) == 0)

static key top_key(const char *s, size_t len)
{
	if (KEY_IS("traceEvents"))
		return K_TRACE_EVENTS;
	if (KEY_IS("deviceProperties"))
		return K_DEVPROPS;
	if (KEY_IS("distributedInfo"))
		return K_DIST;
	if (KEY_IS("baseTimeNanoseconds"))
		return K_BASE_TIME;
	if (KEY_IS("cuda_runtime_version") || KEY_IS("cuda_driver_version") ||
	    KEY_IS("cupti_version"))
		return K_NVIDIA_VER;
	if (KEY_IS("roctracer_version") || KEY_IS("hip_runtime_version") ||
	    KEY_IS("hip_driver_version") || KEY_IS("rocprofiler_version"))
		return K_AMD_VER;
	return K_OTHER;
}

static key event_key(const char *s, size_t len)
{
	switch (len) {
	case 2:
		if (KEY_IS("ph"))
			return K_PH;
		if (KEY_IS("ts"))
			return K_TS;
		if (KEY_IS("id"))
			return K_ID;
		break;
	case 3:
		if (KEY_IS("cat"))
			return K_CAT;
		if (KEY_IS("dur"))
			return K_DUR;
		if (KEY_IS("pid"))
			return K_PID;
		if (KEY_IS("tid"))
			return K_TID;
		break;
	case 4:
		if (KEY_IS("name"))
			return K_NAME;
		if (KEY_IS("args"))
			return K_ARGS;
		break;
	}
	return K_OTHER;
}

static key args_key(const char *s, size_t len)
{
	switch (len) {
	case 4:
		if (KEY_IS("grid"))
			return K_GRID;
		if (KEY_IS("Addr"))
			return K_MEM_ADDR;
		break;
	case 5:
		if (KEY_IS("block"))
			return K_BLOCK;
		if (KEY_IS("bytes"))
			return K_BYTES;
		if (KEY_IS("dtype"))
			return K_MSG_DTYPE;
		if (KEY_IS("Bytes"))
			return K_MEM_BYTES;
		break;
	case 6:
		if (KEY_IS("device"))
			return K_DEVICE;
		if (KEY_IS("stream"))
			return K_STREAM;
		if (KEY_IS("kernel"))
			return K_KERNEL;
		break;
	case 9:
		if (KEY_IS("Device Id"))
			return K_MEM_DEVICE;
		break;
	case 10:
		if (KEY_IS("Input Dims"))
			return K_INPUT_DIMS;
		if (KEY_IS("Input type"))
			return K_INPUT_TYPE;
		if (KEY_IS("Group size"))
			return K_GROUP_SIZE;
		break;
	case 11:
		if (KEY_IS("correlation"))
			return K_CORRELATION;
		/* "external id" in PyTorch 1.8 / 1.9 */
		if (KEY_IS("External id") || KEY_IS("external id"))
			return K_EXTERNAL_ID;
		if (KEY_IS("Device Type"))
			return K_MEM_DEVTYPE;
		break;
	case 13:
		if (KEY_IS("In msg nelems"))
			return K_IN_NELEMS;
		break;
	case 14:
		if (KEY_IS("Out msg nelems"))
			return K_OUT_NELEMS;
		if (KEY_IS("Total Reserved"))
			return K_MEM_RESERVED;
		break;
	case 15:
		if (KEY_IS("Total Allocated"))
			return K_MEM_ALLOC;
		if (KEY_IS("Concrete Inputs"))
			return K_CONCRETE;
		if (KEY_IS("Collective name"))
			return K_COLLECTIVE;
		break;
	}
	return K_OTHER;
}

static key devprop_key(const char *s, size_t len)
{
	if (KEY_IS("id"))
		return K_DEV_ID;
	if (KEY_IS("name"))
		return K_DEV_NAME;
	if (KEY_IS("numSms"))
		return K_DEV_SMS;
	if (KEY_IS("totalGlobalMem"))
		return K_DEV_MEM;
	if (KEY_IS("warpSize"))
		return K_DEV_WARP;
	if (KEY_IS("multiProcessorCount"))
		return K_DEV_MPC;
	return K_OTHER;
}

static key dist_key(const char *s, size_t len)
{
	if (KEY_IS("rank"))
		return K_RANK;
	if (KEY_IS("world_size"))
		return K_WORLD_SIZE;
	return K_OTHER;
}

static role cur_role(const ts_parser *p)
{
	return p->cur;
}

static role role_at_depth(const ts_parser *p)
{
	if (p->depth == 0)
		return R_NONE;
	return p->depth <= MAX_DEPTH ? p->roles[p->depth - 1] : R_SKIP;
}

int ts_prs_cancel(ts_parser *p, ts_status st, const char *msg)
{
	p->e.status = st;
	snprintf(p->e.msg, sizeof p->e.msg, "%s", msg);
	return 0;
}

int ts_prs_number_too_long(ts_parser *p, uint64_t start)
{
	char msg[96];
	snprintf(msg, sizeof msg, "malformed JSON: a number longer than %d bytes",
		 TS_NUMBER_MAX);
	p->cancel_off = start + 1;
	return ts_prs_cancel(p, TS_ERR_JSON, msg);
}

/* A number the span holds whole starts consumed - len bytes in; one begun
 * in an earlier span is where the guard saw it start. Kept out of line so
 * that cb_number stays a compare and a jump. */
__attribute__((noinline, cold)) static int long_number(ts_parser *p, size_t len)
{
	size_t used = yajl_get_bytes_consumed(p->h);
	return ts_prs_number_too_long(p, used >= len ? p->fed + used - len : p->lx.start);
}

static ts_devprop *cur_dev(ts_parser *p)
{
	return p->meta->ndev > 0 ? &p->meta->dev[p->meta->ndev - 1] : NULL;
}

/* Whether a scalar on_scalar takes under this role and key is read as a
 * number (the fast handlers read their own). */
static bool wants_number(role r, key k)
{
	switch (r) {
	case R_TOP:
		return k == K_BASE_TIME;
	case R_ARGS:
		return k != K_OTHER && k != K_KERNEL;
	case R_DIST:
		return k != K_OTHER;
	case R_DEVPROP:
		return k != K_OTHER && k != K_DEV_NAME;
	default:
		return false;
	}
}

/* Tensor dimensions: short non-negative integers, many per CPU op. */
static int on_dim(ts_parser *p, const char *s, size_t len, bool is_num)
{
	ts_event *ev = &p->ev;
	unsigned op = (unsigned)ev->noperands - 1;
	if (op >= TS_MAX_OPERANDS || ev->rank[op] == TS_RANK_BAD)
		return 1;
	int64_t v = 0;
	for (size_t i = 0; is_num && i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9 || i >= 18) {
			v = -1;   /* negative, fractional or huge */
			break;
		}
		v = v * 10 + d;
	}
	if (!is_num || v < 0)
		ev->rank[op] = TS_RANK_BAD;   /* no shape, rather than a wrong one */
	else if (ev->rank[op] < TS_MAX_RANK)
		ev->dims[op][ev->rank[op]++] = v;
	else
		ev->rank[op] = TS_RANK_BAD;   /* rank past what we keep */
	return 1;
}

/* An entry of a kernel's grid or block: up to three int32 values. */
static int grid_value(ts_parser *p, bool grid, const char *s, size_t len,
		      bool is_num, bool is_str)
{
	int64_t v;
	bool ok = false;
	if (is_num || is_str) {
		ok = ts_num_int64(s, len, &v) == TS_OK;
		if (!ok && is_num)
			p->stats.bad_numbers++;
	}
	if (ok && p->arr_idx < 3 && v >= INT32_MIN && v <= INT32_MAX) {
		int32_t *dst = grid ? p->ev.grid : p->ev.block;
		dst[p->arr_idx] = (int32_t)v;
		p->ev.has |= grid ? TS_HAS_GRID : TS_HAS_BLOCK;
	}
	p->arr_idx++;
	return 1;
}

/* A timestamp within TS_MIN_TS_NS..TS_MAX_TS_NS, a duration within
 * 0..TS_MAX_DUR_NS:
 * anything else is not a time a profiler wrote (and would overflow the
 * sums); the event is then untimed, counted with the first byte offset. */
static bool time_in_range(ts_parser *p, bool is_ts, int64_t v)
{
	if (is_ts ? (v >= TS_MIN_TS_NS && v <= TS_MAX_TS_NS) : (v >= 0 && v <= TS_MAX_DUR_NS))
		return true;
	if (p->stats.bad_times++ == 0)
		p->stats.bad_time_byte = p->fed + yajl_get_bytes_consumed(p->h);
	return false;
}

/* An item of "Concrete Inputs": scalar arguments as text: "8", "-1", ""
 * (a tensor), "[1, 512]", "True"; integers are kept, booleans as 1 and 0. */
static int concrete_value(ts_parser *p, const char *s, size_t len, bool is_str)
{
	ts_event *ev = &p->ev;
	unsigned i = p->arr_idx++;
	if (i >= TS_MAX_CONCRETE || !is_str || len == 0 || len >= 19)
		return 1;
	if ((len == 4 && memcmp(s, "True", 4) == 0) || (len == 5 && memcmp(s, "False", 5) == 0)) {
		ev->concrete[i] = len == 4;
		ev->nconcrete |= (uint16_t)(1u << i);
		return 1;
	}
	/* integers only: an optional '-' and digits ("1e-05", "0.5" are not) */
	size_t k = s[0] == '-';
	if (k == len)
		return 1;
	for (size_t j = k; j < len; j++)
		if ((unsigned)(s[j] - '0') > 9)
			return 1;
	int64_t cv;
	if (ts_num_int64(s, len, &cv) == TS_OK) {
		ev->concrete[i] = cv;
		ev->nconcrete |= (uint16_t)(1u << i);
	}
	return 1;
}

/* An item of "Input type": the operand's dtype. */
static int type_value(ts_parser *p, const char *s, size_t len, bool is_str)
{
	ts_event *ev = &p->ev;
	unsigned k = p->arr_idx++;
	if (k < TS_MAX_OPERANDS && is_str) {
		size_t n = len < TS_DTYPE_MAX - 1 ? len : TS_DTYPE_MAX - 1;
		memcpy(ev->dtype[k], s, n);
		ev->dtype[k][n] = '\0';
		for (unsigned q = ev->ntypes; q < k; q++)
			ev->dtype[q][0] = '\0';
		ev->ntypes = (uint8_t)(k + 1);
		ev->has |= TS_HAS_DTYPE;
	}
	return 1;
}

/* A device's name and numbers (deviceProperties). */
static int devprop_value(ts_parser *p, const char *s, size_t len, bool is_str, bool num_ok,
			 int64_t v)
{
	ts_devprop *d = cur_dev(p);
	if (!d)
		return 1;
	if (p->cur_key == K_DEV_NAME && is_str) {
		size_t n = len < TS_DEVNAME_MAX - 1 ? len : TS_DEVNAME_MAX - 1;
		memcpy(d->name, s, n);
		d->name[n] = '\0';
		d->has |= TS_DEV_HAS_NAME;
		return 1;
	}
	if (!num_ok)
		return 1;
	switch (p->cur_key) {
	case K_DEV_ID:
		d->id = v;
		d->has |= TS_DEV_HAS_ID;
		break;
	case K_DEV_SMS:
		d->sm_count = v;
		d->has |= TS_DEV_HAS_SMS;
		break;
	case K_DEV_MEM:
		d->memory_bytes = v;
		d->has |= TS_DEV_HAS_MEM;
		break;
	case K_DEV_WARP:
		d->warp_size = v;
		d->has |= TS_DEV_HAS_WARP;
		break;
	case K_DEV_MPC:
		d->mp_count = v;
		d->has |= TS_DEV_HAS_MPC;
		break;
	default:
		break;
	}
	return 1;
}

/* The scalars no fast handler takes (A_SLOW): the top level's known keys,
 * device properties, distributedInfo, and scalars where traceEvents or a
 * dimensions list holds containers; an args key whose value should be a
 * container (grid, dims) is ignored as a scalar. s is number text or a
 * string, or NULL for null and booleans (absent). */
static int on_scalar(ts_parser *p, const char *s, size_t len, bool is_num,
		     bool is_str)
{
	role r = cur_role(p);
	int64_t v = 0;
	bool num_ok = false;
	if ((is_num || is_str) && wants_number(r, p->cur_key)) {
		num_ok = ts_num_int64(s, len, &v) == TS_OK;
		if (!num_ok && is_num)
			p->stats.bad_numbers++;
	}
	switch (r) {
	case R_NONE:
		return ts_prs_cancel(p, TS_ERR_NOT_TRACE,
			      "not a trace: the JSON value is not an object (a Kineto trace is an object with a traceEvents array)");
	case R_TOP:
		if (p->cur_key == K_TRACE_EVENTS)
			return ts_prs_cancel(p, TS_ERR_NOT_TRACE,
				      "not a trace: traceEvents is not an array");
		if (p->cur_key == K_BASE_TIME && num_ok) {
			p->meta->base_time_ns = v;
			p->meta->has |= TS_META_HAS_BASE_TIME;
		}
		return 1;
	case R_EVENTS:
		p->stats.bad_items++;
		p->stats.events++;
		return 1;
	case R_DIMS:
		/* a scalar where an operand's list should be: no shape */
		if (p->ev.noperands < UINT8_MAX) {
			if (p->ev.noperands < TS_MAX_OPERANDS)
				p->ev.rank[p->ev.noperands] = 0;
			p->ev.noperands++;
		}
		return 1;
	case R_DEVPROP:
		return devprop_value(p, s, len, is_str, num_ok, v);
	case R_DIST:
		if (num_ok && p->cur_key == K_RANK) {
			p->meta->rank = v;
			p->meta->has |= TS_META_HAS_RANK;
		} else if (num_ok && p->cur_key == K_WORLD_SIZE) {
			p->meta->world_size = v;
			p->meta->has |= TS_META_HAS_WORLD;
		}
		return 1;
	default:
		return 1;
	}
}

/*
 * Scalar handlers, one per action and kind (number text or string), so the
 * common fields cost a table lookup and a store. They do exactly what
 * on_scalar would do for the same role and key.
 */
typedef int (*scalar_fn)(ts_parser *p, const char *s, size_t len);

static int skip_value(ts_parser *p, const char *s, size_t len)
{
	(void)p, (void)s, (void)len;
	return 1;
}

static int slow_num(ts_parser *p, const char *s, size_t len)
{
	return on_scalar(p, s, len, true, false);
}

static int slow_str(ts_parser *p, const char *s, size_t len)
{
	return on_scalar(p, s, len, false, true);
}

static int dim_num(ts_parser *p, const char *s, size_t len)
{
	return on_dim(p, s, len, true);
}

static int dim_str(ts_parser *p, const char *s, size_t len)
{
	return on_dim(p, s, len, false);
}

static int ph_str(ts_parser *p, const char *s, size_t len)
{
	if (len > 0)
		p->ev.ph = s[0];
	return 1;
}

static int cat_str(ts_parser *p, const char *s, size_t len)
{
	p->ev.cat = ts_cat_from(s, len);
	p->ev.has |= TS_HAS_CAT;
	return 1;
}

/* The kernel a runtime launch names (HIP writes it; CUDA does not), cut
 * where event names are cut so that the two compare. */
/* s[0..n) as the event's string: borrowed where it lies in the bytes lent
 * (ts_parser_lend), else copied to own (TS_NAME_MAX bytes). */
static const char *keep_str(const ts_parser *p, char *own, const char *s, size_t n)
{
	if ((uintptr_t)s >= p->lent_lo && (uintptr_t)s + n <= p->lent_hi)
		return s;
	memcpy(own, s, n);
	return own;
}

static int kname_str(ts_parser *p, const char *s, size_t len)
{
	size_t n = len > TS_NAME_MAX ? TS_NAME_MAX : len;
	p->ev.kname = keep_str(p, p->kname, s, n);
	p->ev.kname_len = n;
	p->ev.has = (p->ev.has | TS_HAS_KERNEL) & ~(uint32_t)TS_HAS_COLLECTIVE;
	return 1;
}

/* A CPU op's collective (record_param_comms: "allreduce", "allgather"...),
 * kept where a launch keeps its kernel name (an event has one or the
 * other). */
static int coll_str(ts_parser *p, const char *s, size_t len)
{
	if (p->ev.has & TS_HAS_KERNEL)
		return 1;
	size_t n = len > TS_NAME_MAX ? TS_NAME_MAX : len;
	p->ev.kname = keep_str(p, p->kname, s, n);
	p->ev.kname_len = n;
	p->ev.has |= TS_HAS_COLLECTIVE;
	return 1;
}

/* A collective's dtype as Kineto spells it ("Float", "BFloat16",
 * "Half", "Long", ...): the bytes of one element. */
static int msg_dtype_str(ts_parser *p, const char *s, size_t len)
{
	static const struct { const char *name; uint8_t size; } dt[] = {
		{ "Float", 4 }, { "BFloat16", 2 }, { "Half", 2 }, { "Double", 8 },
		{ "Int", 4 }, { "Long", 8 }, { "Short", 2 }, { "Char", 1 }, { "Byte", 1 },
		{ "Bool", 1 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
		{ "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 }, { "ComplexFloat", 8 },
	};
	for (size_t i = 0; i < sizeof dt / sizeof *dt; i++)
		if (strlen(dt[i].name) == len && memcmp(dt[i].name, s, len) == 0) {
			p->ev.elem_size = dt[i].size;
			break;
		}
	return 1;
}

static int name_str(ts_parser *p, const char *s, size_t len)
{
	ts_event *ev = &p->ev;
	size_t n = len;
	if (n > TS_NAME_MAX) {
		n = TS_NAME_MAX;
		ev->has |= TS_NAME_TRUNCATED;
		p->stats.long_names++;
	}
	ev->name = keep_str(p, p->name, s, n);
	ev->name_len = n;
	ev->has |= TS_HAS_NAME;
	return 1;
}

/* ts and dur are microseconds: kept as nanoseconds. A string that is not a
 * number is a bad number here (unlike ids, where "Spans" is legal). */
static int time_value(ts_parser *p, const char *s, size_t len)
{
	int64_t v;
	if (ts_num_scaled(s, len, 3, &v) != TS_OK) {
		p->stats.bad_numbers++;
		return 1;
	}
	if (!time_in_range(p, p->act == A_TS, v))
		return 1;
	if (p->act == A_TS) {
		p->ev.ts_ns = v;
		p->ev.has |= TS_HAS_TS;
	} else {
		p->ev.dur_ns = v;
		p->ev.has |= TS_HAS_DUR;
	}
	return 1;
}

/* id, pid, tid, and the integers in args; is_num counts a failure. */
/* The field of an allocator's "[memory]" figure key k, NULL for another key. */
static int64_t *mem_field(ts_event *ev, key k)
{
	switch (k) {
	case K_MEM_ALLOC:
		return &ev->mem.allocated;
	case K_MEM_RESERVED:
		return &ev->mem.reserved;
	case K_MEM_BYTES:
		return &ev->mem.bytes;
	case K_MEM_DEVICE:
		return &ev->mem.device;
	case K_MEM_DEVTYPE:
		return &ev->mem.device_type;
	case K_MEM_ADDR:
		return &ev->mem.addr;
	default:
		return NULL;
	}
}

static int int_value(ts_parser *p, const char *s, size_t len, bool is_num)
{
	int64_t v;
	if (ts_num_int64(s, len, &v) != TS_OK) {
		if (is_num)
			p->stats.bad_numbers++;
		return 1;
	}
	ts_event *ev = &p->ev;
	switch (p->act == A_ARG_NUM ? p->cur_key : K_OTHER) {
	case K_DEVICE:
		ev->device = v;
		ev->has |= TS_HAS_DEVICE;
		return 1;
	case K_STREAM:
		ev->stream = v;
		ev->has |= TS_HAS_STREAM;
		return 1;
	case K_CORRELATION:
		ev->correlation = v;
		ev->has |= TS_HAS_CORRELATION;
		return 1;
	case K_EXTERNAL_ID:
		ev->external_id = v;
		ev->has |= TS_HAS_EXTERNAL_ID;
		return 1;
	case K_BYTES:
		if (v >= 0) {
			ev->bytes = v;
			ev->has |= TS_HAS_BYTES;
		}
		return 1;
	case K_IN_NELEMS:
	case K_OUT_NELEMS:
		if (v >= 0) {
			*(p->cur_key == K_IN_NELEMS ? &ev->in_nelems : &ev->out_nelems) = v;
			ev->has |= TS_HAS_MSG;
		}
		return 1;
	case K_GROUP_SIZE:
		if (v > 0 && v <= INT32_MAX)
			ev->group_size = (int32_t)v;
		return 1;
	default:
		break;
	}
	int64_t *mem = p->act == A_ARG_NUM ? mem_field(ev, p->cur_key) : NULL;
	if (mem) {
		*mem = v;
		ev->has |= TS_HAS_MEM;
		return 1;
	}
	switch (p->act) {
	case A_ID:
		ev->id = v;
		ev->has |= TS_HAS_ID;
		break;
	case A_PID:
		ev->pid = v;
		ev->has |= TS_HAS_PID;
		break;
	default:
		ev->tid = v;
		ev->has |= TS_HAS_TID;
		break;
	}
	return 1;
}

static int int_num(ts_parser *p, const char *s, size_t len)
{
	return int_value(p, s, len, true);
}

static int int_str(ts_parser *p, const char *s, size_t len)
{
	return int_value(p, s, len, false);
}

static int grid_num(ts_parser *p, const char *s, size_t len)
{
	return grid_value(p, p->act == A_GRID, s, len, true, false);
}

static int grid_str(ts_parser *p, const char *s, size_t len)
{
	return grid_value(p, p->act == A_GRID, s, len, false, true);
}

static int type_num(ts_parser *p, const char *s, size_t len)
{
	return type_value(p, s, len, false);
}

static int type_str(ts_parser *p, const char *s, size_t len)
{
	return type_value(p, s, len, true);
}

static int conc_num(ts_parser *p, const char *s, size_t len)
{
	return concrete_value(p, s, len, false);
}

static int conc_str(ts_parser *p, const char *s, size_t len)
{
	return concrete_value(p, s, len, true);
}

static const scalar_fn on_number[] = {
	[A_SKIP] = skip_value, [A_SLOW] = slow_num, [A_DIM] = dim_num,
	[A_PH] = skip_value, [A_CAT] = skip_value, [A_NAME] = skip_value,
	[A_TS] = time_value, [A_DUR] = time_value, [A_ID] = int_num,
	[A_PID] = int_num, [A_TID] = int_num, [A_ARG_NUM] = int_num,
	[A_GRID] = grid_num, [A_BLOCK] = grid_num, [A_TYPE] = type_num,
	[A_CONC] = conc_num, [A_KNAME] = skip_value, [A_COLL] = skip_value,
	[A_MSG_DTYPE] = skip_value,
};

static const scalar_fn on_string[] = {
	[A_SKIP] = skip_value, [A_SLOW] = slow_str, [A_DIM] = dim_str,
	[A_PH] = ph_str, [A_CAT] = cat_str, [A_NAME] = name_str,
	[A_TS] = time_value, [A_DUR] = time_value, [A_ID] = int_str,
	[A_PID] = int_str, [A_TID] = int_str, [A_ARG_NUM] = int_str,
	[A_GRID] = grid_str, [A_BLOCK] = grid_str, [A_TYPE] = type_str,
	[A_CONC] = conc_str, [A_KNAME] = kname_str, [A_COLL] = coll_str,
	[A_MSG_DTYPE] = msg_dtype_str,
};

/* null and booleans: absent values, which still count as items of the
 * arrays we index (traceEvents, dimensions, grid, types, inputs). */
static int on_absent(ts_parser *p)
{
	switch (p->act) {
	case A_DIM:
		return on_dim(p, NULL, 0, false);
	case A_GRID:
	case A_BLOCK:
		return grid_value(p, p->act == A_GRID, NULL, 0, false, false);
	case A_TYPE:
		return type_value(p, NULL, 0, false);
	case A_CONC:
		return concrete_value(p, NULL, 0, false);
	case A_SLOW:
		return on_scalar(p, NULL, 0, false, false);
	default:
		return 1;
	}
}

static int cb_null(void *ctx)
{
	return on_absent(ctx);
}

static int cb_boolean(void *ctx, int b)
{
	(void)b;
	return on_absent(ctx);
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	ts_parser *p = ctx;
	if (len > TS_NUMBER_MAX)
		return long_number(p, len);
	return on_number[p->act](p, s, len);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	ts_parser *p = ctx;
	return on_string[p->act](p, (const char *)s, len);
}

/* What a scalar does in a container of role r before any key (arrays);
 * on_scalar decides in the arrays we read. */
action ts_prs_role_action(role r)
{
	switch (r) {
	case R_NONE:
	case R_EVENTS:
	case R_DIMS:
		return A_SLOW;
	case R_GRID:
		return A_GRID;
	case R_BLOCK:
		return A_BLOCK;
	case R_TYPES:
		return A_TYPE;
	case R_CONC:
		return A_CONC;
	case R_DIM:
		return A_DIM;
	default:
		return A_SKIP;
	}
}

/* What the value of key k in the current event does. pid/tid matter only
 * for GPU events (the device of last resort) and for the threads of Python
 * frames and the runtime calls looked up in them; cat comes first in Kineto
 * files, so cpu_ops never convert them. */
static action event_action(const ts_parser *p, key k)
{
	const ts_event *ev = &p->ev;
	switch (k) {
	case K_PH:
		return A_PH;
	case K_CAT:
		return A_CAT;
	case K_NAME:
		return A_NAME;
	case K_TS:
		return A_TS;
	case K_DUR:
		return A_DUR;
	case K_ID:
		return A_ID;
	case K_PID:
	case K_TID:
		/* the CPU's ops and instants too: an allocator event belongs
		 * to the op of its thread (memory_ops.h) */
		if ((ev->has & TS_HAS_CAT) && ev->cat != TS_CAT_KERNEL &&
		    ev->cat != TS_CAT_GPU_MEMCPY && ev->cat != TS_CAT_GPU_MEMSET &&
		    ev->cat != TS_CAT_PYTHON_FUNCTION && ev->cat != TS_CAT_CUDA_RUNTIME &&
		    ev->cat != TS_CAT_CUDA_DRIVER && ev->cat != TS_CAT_CPU_OP &&
		    ev->cat != TS_CAT_OTHER)
			return A_SKIP;
		return k == K_PID ? A_PID : A_TID;
	default:
		return A_SKIP;   /* "args" as a scalar, or a key we ignore */
	}
}

static int cb_map_key(void *ctx, const unsigned char *us, size_t len)
{
	ts_parser *p = ctx;
	const char *s = (const char *)us;
	switch (cur_role(p)) {
	case R_TOP:
		p->cur_key = top_key(s, len);
		if (p->cur_key == K_NVIDIA_VER)
			p->meta->nvidia_keys++;
		else if (p->cur_key == K_AMD_VER)
			p->meta->amd_keys++;
		p->act = p->cur_key == K_OTHER ? A_SKIP : A_SLOW;
		break;
	case R_EVENT:
		p->cur_key = event_key(s, len);
		p->act = event_action(p, p->cur_key);
		break;
	case R_ARGS:
		p->cur_key = args_key(s, len);
		switch (p->cur_key) {
		case K_OTHER:
			p->act = A_SKIP;
			break;
		case K_DEVICE:
		case K_STREAM:
		case K_CORRELATION:
		case K_EXTERNAL_ID:
		case K_BYTES:
			p->act = A_ARG_NUM;
			break;
		case K_KERNEL:
			p->act = (p->ev.has & TS_HAS_CAT) && p->ev.cat != TS_CAT_CUDA_RUNTIME &&
				 p->ev.cat != TS_CAT_CUDA_DRIVER ? A_SKIP : A_KNAME;
			break;
		case K_COLLECTIVE:
			p->act = (p->ev.has & TS_HAS_CAT) && p->ev.cat != TS_CAT_CPU_OP ? A_SKIP : A_COLL;
			break;
		case K_IN_NELEMS:
		case K_OUT_NELEMS:
		case K_GROUP_SIZE:
			p->act = A_ARG_NUM;
			break;
		case K_MSG_DTYPE:
			p->act = A_MSG_DTYPE;
			break;
		default:   /* an allocator's figure, else grid, dims, ... as scalars */
			p->act = mem_field(&p->ev, p->cur_key) ? A_ARG_NUM : A_SLOW;
			break;
		}
		break;
	case R_DEVPROP:
		p->cur_key = devprop_key(s, len);
		p->act = p->cur_key == K_OTHER ? A_SKIP : A_SLOW;
		break;
	case R_DIST:
		p->cur_key = dist_key(s, len);
		p->act = p->cur_key == K_OTHER ? A_SKIP : A_SLOW;
		break;
	default:
		p->act = A_SKIP;
		break;
	}
	return 1;
}

void ts_prs_reset_event(ts_parser *p)
{
	ts_event *ev = &p->ev;
	ev->cat = TS_CAT_OTHER;
	ev->ph = 0;
	ev->has = 0;
	ev->nconcrete = 0;
	ev->name = p->name;
	ev->name_len = 0;
	ev->name_hash = 0;
	ev->kname = p->kname;
	ev->kname_len = 0;
	ev->in_nelems = ev->out_nelems = -1;
	ev->group_size = 0;
	ev->elem_size = 0;
	ev->mem = (ts_mem_args){ -1, -1, 0, -1, -1, -1 };
}

/* The role of a container opening inside the current one. */
static role child_role(ts_parser *p, bool is_map)
{
	role parent = cur_role(p);
	switch (parent) {
	case R_NONE:
		return is_map ? R_TOP : R_NONE;
	case R_TOP:
		if (!is_map && p->cur_key == K_TRACE_EVENTS)
			return R_EVENTS;
		if (!is_map && p->cur_key == K_DEVPROPS)
			return R_DEVPROPS;
		if (is_map && p->cur_key == K_DIST)
			return R_DIST;
		return R_SKIP;
	case R_EVENTS:
		return is_map ? R_EVENT : R_SKIP;
	case R_EVENT:
		return is_map && p->cur_key == K_ARGS ? R_ARGS : R_SKIP;
	case R_ARGS:
		if (!is_map && p->cur_key == K_GRID)
			return R_GRID;
		if (!is_map && p->cur_key == K_BLOCK)
			return R_BLOCK;
		/* shapes matter on CPU ops only ("cat" comes first in
		 * Kineto files; when it has not, keep them) */
		if (!is_map && (p->cur_key == K_INPUT_DIMS || p->cur_key == K_INPUT_TYPE ||
				p->cur_key == K_CONCRETE) &&
		    (!(p->ev.has & TS_HAS_CAT) || p->ev.cat == TS_CAT_CPU_OP))
			return p->cur_key == K_INPUT_DIMS ? R_DIMS
			     : p->cur_key == K_CONCRETE ? R_CONC : R_TYPES;
		return R_SKIP;
	case R_DIMS:
		return is_map ? R_SKIP : R_DIM;
	case R_DEVPROPS:
		return is_map ? R_DEVPROP : R_SKIP;
	default:
		return R_SKIP;
	}
}

static int open_container(ts_parser *p, bool is_map)
{
	if (p->cur == R_SKIP) {
		/* inside what nobody reads (strides, unknown args): cur,
		 * cur_key and act stay R_SKIP, K_OTHER and A_SKIP */
		if (p->depth < MAX_DEPTH)
			p->roles[p->depth] = R_SKIP;
		p->depth++;
		return 1;
	}
	role r = child_role(p, is_map);
	if (cur_role(p) == R_EVENTS && !is_map) {
		p->stats.bad_items++;   /* an array where an event should be */
		p->stats.events++;
	}
	if (p->depth == 0) {
		if (r != R_TOP) {
			const char *kind = ts_magic_kind(p->head, p->nhead);
			char m[200];
			snprintf(m, sizeof m, "not a trace: %s", kind ? kind
				 : "the JSON value is an array, not an object with a traceEvents array");
			return ts_prs_cancel(p, TS_ERR_NOT_TRACE, m);
		}
		p->top_seen = true;
	}
	if (cur_role(p) == R_TOP && p->cur_key == K_TRACE_EVENTS && r != R_EVENTS)
		return ts_prs_cancel(p, TS_ERR_NOT_TRACE,
			      "not a trace: traceEvents is not an array");
	switch (r) {
	case R_EVENTS:
		p->meta->saw_trace_events = 1;
		break;
	case R_EVENT:
		ts_prs_reset_event(p);
		break;
	case R_GRID:
	case R_BLOCK:
	case R_TYPES:
		p->ev.ntypes = 0;
		p->arr_idx = 0;
		break;
	case R_CONC:
		p->arr_idx = 0;
		break;
	case R_DIMS:
		p->ev.noperands = 0;
		p->ev.has |= TS_HAS_DIMS;
		break;
	case R_DIM:
		if (p->ev.noperands < UINT8_MAX) {
			if (p->ev.noperands < TS_MAX_OPERANDS)
				p->ev.rank[p->ev.noperands] = 0;
			p->ev.noperands++;
		}
		break;
	case R_DEVPROP:
		if (p->meta->ndev < TS_MAX_DEVPROPS) {
			ts_devprop *d = &p->meta->dev[p->meta->ndev++];
			memset(d, 0, sizeof *d);
		} else {
			p->meta->devprops_dropped++;
			r = R_SKIP;
		}
		break;
	default:
		break;
	}
	if (p->depth < MAX_DEPTH)
		p->roles[p->depth] = r;
	p->depth++;
	p->cur = role_at_depth(p);
	p->cur_key = K_OTHER;
	p->act = ts_prs_role_action(p->cur);
	return 1;
}

/* A device's SM count no GPU has (a writer put another field's value
 * there: an RTP-LLM trace's numSms is its sharedMemPerMultiprocessor) is
 * set aside for the warning; its multiProcessorCount, where plausible,
 * stands in. */
#define TS_SMS_MAX 1024

static void check_devprop(ts_devprop *d)
{
	bool mpc = (d->has & TS_DEV_HAS_MPC) && d->mp_count > 0 && d->mp_count <= TS_SMS_MAX;
	if ((d->has & TS_DEV_HAS_SMS) && (d->sm_count <= 0 || d->sm_count > TS_SMS_MAX)) {
		d->bad_sms = d->sm_count ? d->sm_count : -1;
		d->has &= ~TS_DEV_HAS_SMS;
		d->sm_count = 0;
	}
	if (!(d->has & TS_DEV_HAS_SMS) && mpc) {
		d->sm_count = d->mp_count;
		d->has |= TS_DEV_HAS_SMS;
	}
}

static int close_container(ts_parser *p)
{
	role r = cur_role(p);
	if (r == R_DEVPROP && p->meta->ndev > 0)
		check_devprop(&p->meta->dev[p->meta->ndev - 1]);
	p->depth--;
	p->cur = role_at_depth(p);
	p->cur_key = K_OTHER;
	p->act = ts_prs_role_action(p->cur);
	if (r == R_EVENTS)
		p->meta->events_close = p->fed + yajl_get_bytes_consumed(p->h);
	if (r == R_EVENT) {
		ts_event *ev = &p->ev;
		p->closed = true;
		p->close_at = yajl_get_bytes_consumed(p->h);
		if (p->depth >= 1 && p->roles[p->depth - 1] == R_EVENTS) {
			p->meta->last_event_end = p->fed + p->close_at;
			p->meta->events_in_array++;
		}
		if (ev->ph == 'M')
			ev->cat = TS_CAT_METADATA;
		/* a kernel's begin and end as two events (Chrome's B/E), or an
		 * instant: no launch, no duration; never counted as kernels */
		if ((ev->has & TS_HAS_CAT) &&
		    (ev->cat == TS_CAT_KERNEL || ev->cat == TS_CAT_GPU_MEMCPY ||
		     ev->cat == TS_CAT_GPU_MEMSET) && ev->ph && strchr("BEbeiI", ev->ph)) {
			if (!p->stats.gpu_phase++)
				p->stats.gpu_phase_byte = p->fed + p->close_at;
			ev->cat = TS_CAT_OTHER;
		}
		/* shapes are a CPU op's: read before its "cat" said otherwise,
		 * they go, so key order changes nothing */
		if ((ev->has & TS_HAS_CAT) && ev->cat != TS_CAT_CPU_OP) {
			ev->has &= ~TS_HAS_DIMS;
			ev->noperands = 0;
			ev->ntypes = 0;
			ev->nconcrete = 0;
		}
		ev->end_offset = p->fed + p->close_at;
		p->stats.events++;
		ts_status st = p->fn(p->ud, ev);
		if (st != TS_OK)
			return ts_prs_cancel(p, st, ts_strerror(st));
	}
	return 1;
}

static int cb_start_map(void *ctx)
{
	return open_container(ctx, true);
}

static int cb_start_array(void *ctx)
{
	return open_container(ctx, false);
}

static int cb_end(void *ctx)
{
	return close_container(ctx);
}

const yajl_callbacks ts_prs_callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_boolean,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};
