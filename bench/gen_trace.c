/*
 * gen_trace: deterministic generator of large Kineto-shaped Chrome traces.
 *
 *   gen_trace (--bytes N[K|M|G] | --steps K) [--platform nvidia|amd]
 *             [--layers L] [--seed S] [--truth FILE]
 *
 * Writes a PyTorch-profiler trace of an SGLang-style MoE decode loop to
 * stdout, in the block order real files have: header, every CPU-side event
 * (user_annotation + cpu_op, then python_function), one GPU block (runtime
 * launches, kernels, memcpy/memset, ac2g flows), gpu_user_annotation, "M"
 * metadata, the Trace/instant tail and traceName.
 *
 * Nothing is held per event: each pass over the steps re-plans a step from
 * its index (a fixed-seed LCG), so a 10 GB file costs the same memory as a
 * 1 MB one.  Events are assembled from prebuilt fragments with memcpy and a
 * hand-written integer formatter, so the generator runs far faster than any
 * JSON parser reads.
 *
 * --truth FILE writes the exact facts of what was generated (event counts
 * per category, kernel totals in integer ns, busy time, spans) for checking
 * an analyzer's report.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen_trace_tables.h"

enum {
    OUT_BUF = 1 << 20,          /* write() granularity */
    EVENT_MAX = 8192,           /* room reserved per event; largest is ~2.6 KB */
    ARENA_SIZE = 1 << 20,       /* prebuilt fragments */
    MAX_LAYERS = 128,
    MAX_VIEWS = 2,
    MAX_OPS = 16 + 12 * MAX_LAYERS + 8,
    MAX_GPU = 3 * MAX_OPS,
    MAX_RT = 16,
    BATCH = 16,                 /* decode batch size (python "finished" calls) */
    EXTEND_EVERY = 8,           /* every 8th step is a prefill (EXTEND) step */
    EXTEND_SCALE = 12,          /* token-bound kernels run this much longer */
    GPU_PIDS = 8,               /* a node's GPUs in the metadata block */
};

/* Fixed identity of the trace: ids and times like a real capture. */
static const uint64_t T0_NS = 1428625731622250ull;   /* ts 1428625731622.250 us */
#define BASE_TIME_NS "1775078550000000000"
static const uint64_t EXT0 = 217601;
static const uint64_t CORR0 = 1922034;
static const uint64_t PY_ID0 = 1;

/* ------------------------------------------------------------------ */
/* platforms                                                           */

struct platform {
    const char *label;          /* --platform value */
    const char *vendor;         /* contract's trace.platform */
    const char *gpu_name;
    uint64_t memory_bytes;
    unsigned sm_count, warp_size;
    const char *header;         /* deviceProperties .. baseTimeNanoseconds */
    const struct kernel_def *kernels;
    const struct api_def *apis;
    unsigned cpu_pid;
    unsigned streams[S_COUNT];
    int amd;                    /* AMD arg layouts; runtime block first */
    uint32_t launch_min_ns, launch_max_ns;
};

#define DIST_INFO \
    "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, " \
    "\"world_size\": 4, \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", " \
    "\"pg_desc\": \"default_pg\", \"backend_config\": \"cuda:nccl\", " \
    "\"pg_size\": 4, \"ranks\": [0, 1, 2, 3]}], \"nccl_version\": \"%s\"},\n"

static const char nv_header[] =
    "\n  {\n"
    "    \"schemaVersion\": 1,\n"
    "    \"deviceProperties\": [\n"
    "    {\n"
    "      \"id\": 0, \"name\": \"NVIDIA B300 SXM6 AC\", \"totalGlobalMem\": 287416123392,\n"
    "      \"computeMajor\": 10, \"computeMinor\": 3,\n"
    "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
    "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
    "      \"sharedMemPerBlock\": 49152, \"numSms\": 148\n"
    "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, "
    "\"sharedMemPerMultiprocessor\": 233472\n"
    "    }\n"
    "    ],\n"
    "      \"cupti_version\": 130001,\n"
    "      \"cuda_runtime_version\": 13000,\n"
    "      \"cuda_driver_version\": 13030,\n";

static const char amd_header[] =
    "\n  {\n"
    "    \"schemaVersion\": 1,\n"
    "    \"deviceProperties\": [\n"
    "    {\n"
    "      \"id\": 0, \"name\": \"AMD Instinct MI300X\", \"totalGlobalMem\": 206141652992,\n"
    "      \"computeMajor\": 9, \"computeMinor\": 4,\n"
    "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
    "      \"regsPerBlock\": 131072, \"warpSize\": 64,\n"
    "      \"sharedMemPerBlock\": 65536, \"numSms\": 304\n"
    "    , \"maxSharedMemoryPerMultiProcessor\": 65536\n"
    "    }\n"
    "    ],\n"
    "      \"roctracer_version\": 4.1,\n"
    "      \"hip_runtime_version\": 70253211,\n"
    "      \"hip_driver_version\": 70253211,\n";

static const struct platform platforms[] = {
    { "nvidia", "NVIDIA", "NVIDIA B300 SXM6 AC", 287416123392ull, 148, 32,
      nv_header, nv_kernels, nv_apis, 267, { 13, 37 }, 0, 3000, 8000 },
    { "amd", "AMD", "AMD Instinct MI300X", 206141652992ull, 304, 64,
      amd_header, amd_kernels, amd_apis, 278, { 3, 2 }, 1, 6000, 25000 },
};

/* ------------------------------------------------------------------ */
/* deterministic random numbers                                        */

struct rng { uint64_t s; };

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* 64-bit LCG (Knuth's MMIX constants); the high half is the good half. */
static uint32_t rng_next(struct rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 32);
}

/* Uniform in [0, n), n < 2^32. */
static uint64_t rng_below(struct rng *r, uint64_t n)
{
    return ((uint64_t)rng_next(r) * n) >> 32;
}

/* Uniform in [lo, hi]. */
static uint64_t rng_range(struct rng *r, uint64_t lo, uint64_t hi)
{
    return lo + rng_below(r, hi - lo + 1);
}

/* ------------------------------------------------------------------ */
/* output sink                                                          */

struct sink {
    char *buf;
    size_t len, cap;
    uint64_t flushed;           /* bytes handed to fd (or counted) so far */
    int fd;                     /* -1: count bytes only (size estimation) */
    int first_event;            /* the next traceEvents item needs no comma */
};

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            /* the reader went away (e.g. head): nothing useful left to do */
            if (errno != EPIPE)
                perror("gen_trace: write");
            exit(1);
        }
        p += w;
        n -= (size_t)w;
    }
}

static void sink_flush(struct sink *s)
{
    if (s->fd >= 0 && s->len > 0)
        write_all(s->fd, s->buf, s->len);
    s->flushed += s->len;
    s->len = 0;
}

static uint64_t sink_total(const struct sink *s)
{
    return s->flushed + s->len;
}

/* Any-length write, for the header and footer. */
static void sink_write(struct sink *s, const char *p, size_t n)
{
    while (n > 0) {
        if (s->len == s->cap)
            sink_flush(s);
        size_t k = s->cap - s->len < n ? s->cap - s->len : n;
        memcpy(s->buf + s->len, p, k);
        s->len += k;
        p += k;
        n -= k;
    }
}

/* Start a traceEvents item: reserve room for a whole event, write the
 * separator, and hand back a raw cursor (no bounds checks per field). */
static char *ev_begin(struct sink *s)
{
    if (s->cap - s->len < EVENT_MAX)
        sink_flush(s);
    char *p = s->buf + s->len;
    if (s->first_event)
        s->first_event = 0;
    else {
        p[0] = ',';
        p[1] = '\n';
        p += 2;
    }
    return p;
}

static void ev_end(struct sink *s, char *p)
{
    s->len = (size_t)(p - s->buf);
}

/* ------------------------------------------------------------------ */
/* formatting                                                           */

struct frag { const char *p; size_t n; };

static const char digit_pairs[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static char *put(char *p, struct frag f)
{
    memcpy(p, f.p, f.n);
    return p + f.n;
}

#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    char *q = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * v, 2);
    } else
        *--q = (char)('0' + v);
    size_t n = (size_t)(tmp + sizeof tmp - q);
    memcpy(p, q, n);
    return p + n;
}

/* Integer nanoseconds as Kineto's microseconds with 3 decimals. */
static char *put_us(char *p, uint64_t ns)
{
    p = put_u64(p, ns / 1000);
    unsigned f = (unsigned)(ns % 1000);
    p[0] = '.';
    p[1] = (char)('0' + f / 100);
    p[2] = (char)('0' + f / 10 % 10);
    p[3] = (char)('0' + f % 10);
    return p + 4;
}

/* ------------------------------------------------------------------ */
/* prebuilt fragments                                                  */

/* Bump allocator for fragments built once at start-up. */
struct arena { char *base; size_t used, cap; };

static struct frag frag_fmt(struct arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(a->base + a->used, a->cap - a->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= a->cap - a->used) {
        fprintf(stderr, "gen_trace: fragment arena full\n");
        exit(2);
    }
    struct frag f = { a->base + a->used, (size_t)n };
    a->used += (size_t)n + 1;
    return f;
}

/* An "X" event minus its numbers: head .. "ts": | ts | dur | External id |
 * pre_corr | correlation | tail. */
struct xfrags { struct frag head, pre_corr, tail; };

/* A cpu_op: head .. "ts": | ts | dur | External id | tail | Ev Idx | close. */
struct cfrags { struct frag head, tail; };

enum { ANN_EXEC, ANN_STEP, ANN_KINDS };

struct frags {
    struct xfrags kernel[R_COUNT], launch[R_COUNT];
    struct xfrags mem[M_COUNT], mem_launch[M_COUNT];
    struct xfrags rt[API_COUNT];
    struct cfrags cpu[C_COUNT];
    struct frag ann[2][ANN_KINDS], gpu_ann[2][ANN_KINDS];  /* [extend][kind] */
    struct frag py_step[PY_STEP_DEPTH], py_layer[PY_LAYER_EVENTS];
    struct frag py_module[MAX_LAYERS], py_tail[3];
    struct frag flow_s_mid, flow_f_mid[S_COUNT];  /* s: CPU thread; f: stream */
};

static const char EV_CLOSE[] = "\n    }\n  }";
static const char *const ann_names[2][ANN_KINDS] = {
    { "execute_16_context_0(sq0sk0sqsq0sqsk0)_generation_16(sq16sk8193sqsq16sqsk8193)",
      "step[DECODE bs=16]" },
    { "execute_15360_context_15(sq15360sk15360sqsq1024sqsk1024)_generation_0(sq0sk0sqsq0sqsk0)",
      "step[EXTEND bs=15 toks=15360]" },
};

static struct frag head_x(struct arena *a, const char *cat, const char *name,
                          unsigned pid, unsigned tid)
{
    return frag_fmt(a, "  {\n    \"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", "
                    "\"pid\": %u, \"tid\": %u,\n    \"ts\": ", cat, name, pid, tid);
}

static struct frag collective_args(struct arena *a, int on)
{
    if (!on)
        return frag_fmt(a, "%s", "");
    return frag_fmt(a, ", \"Collective name\": \"allreduce\", \"In msg nelems\": 32768, "
                    "\"Out msg nelems\": 32768, \"Group size\": 4, \"dtype\": \"Float\", "
                    "\"In split size\": \"[]\", \"Out split size\": \"[]\", "
                    "\"Process Group Name\": \"0\", \"Process Group Description\": "
                    "\"default_pg\", \"Process Group Ranks\": \"[0, 1, 2, 3]\"");
}

static void build_kernel_frags(struct arena *a, const struct platform *pf,
                               const struct kernel_def *k, struct xfrags *x)
{
    unsigned stream = pf->streams[k->stream];
    double blocks = (double)k->grid[0] * k->grid[1] * k->grid[2];
    double warps_per_block = (double)k->block[0] * k->block[1] * k->block[2] / pf->warp_size;
    struct frag coll = collective_args(a, k->collective);

    x->head = head_x(a, "kernel", k->name, 0, stream);
    if (pf->amd) {
        x->pre_corr = frag_fmt(a, "      \"device\": 0, \"stream\": %u,      \"correlation\": ",
                               stream);
        x->tail = frag_fmt(a, ", \"kind\": \"Dispatch Kernel\",      \"grid\":     "
                           "[%u, %u, %u], \"block\":     [%u, %u, %u]%s%s",
                           k->grid[0], k->grid[1], k->grid[2], k->block[0],
                           k->block[1], k->block[2], coll.p, EV_CLOSE);
        return;
    }
    x->pre_corr = frag_fmt(a, "      \"queued\": 0, \"device\": 0, \"context\": 1,      "
                           "\"stream\": %u, \"correlation\": ", stream);
    x->tail = frag_fmt(a, ",      \"registers per thread\": %u,      \"shared memory\": %u,"
                       "      \"blocks per SM\": %.6f,      \"warps per SM\": %.6f,"
                       "      \"grid\": [%u, %u, %u],      \"block\": [%u, %u, %u],"
                       "      \"est. achieved occupancy %%\": %u%s%s",
                       k->regs, k->smem, blocks / pf->sm_count,
                       blocks * warps_per_block / pf->sm_count,
                       k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                       k->block[2], k->occupancy, coll.p, EV_CLOSE);
}

static void build_launch_frags(struct arena *a, const struct platform *pf,
                               const struct kernel_def *k, struct xfrags *x)
{
    const struct api_def *api = &pf->apis[k->api];
    x->head = head_x(a, api->cat, api->name, pf->cpu_pid, pf->cpu_pid);
    if (!pf->amd) {
        x->pre_corr = frag_fmt(a, "      \"cbid\": %u, \"correlation\": ", api->id);
        x->tail = frag_fmt(a, "%s", EV_CLOSE);
        return;
    }
    /* hipLaunchKernel names its kernel and shape in the runtime event */
    x->pre_corr = frag_fmt(a, "          \"kernel\": \"%s\", \"cid\": %u, \"correlation\": ",
                           k->name, api->id);
    x->tail = frag_fmt(a, ",      \"grid\": [%u, %u, %u],      \"block\": [%u, %u, %u],"
                       "      \"shared memory\": %u%s",
                       k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                       k->block[2], k->smem, EV_CLOSE);
}

static void build_mem_frags(struct arena *a, const struct platform *pf,
                            enum mem_kind m, struct frags *fr)
{
    const struct mem_def *d = &mem_defs[m];
    const struct api_def *api = &pf->apis[m == M_SET ? API_MEMSET : API_MEMCPY];
    unsigned stream = pf->streams[S_MAIN];
    struct xfrags *x = &fr->mem[m], *l = &fr->mem_launch[m];

    x->head = head_x(a, d->cat, d->name, 0, stream);
    l->head = head_x(a, api->cat, api->name, pf->cpu_pid, pf->cpu_pid);
    if (!pf->amd) {
        x->pre_corr = frag_fmt(a, "      \"device\": 0, \"context\": 1,      "
                               "\"stream\": %u, \"correlation\": ", stream);
        x->tail = frag_fmt(a, ",      \"bytes\": ");
        l->pre_corr = frag_fmt(a, "      \"cbid\": %u, \"correlation\": ", api->id);
        l->tail = frag_fmt(a, "%s", EV_CLOSE);
        return;
    }
    x->pre_corr = frag_fmt(a, "      \"device\": 0, \"stream\": %u,      \"correlation\": ",
                           stream);
    x->tail = frag_fmt(a, ", \"kind\": \"%s\",      \"bytes\": ", d->kind);
    l->pre_corr = frag_fmt(a, "      \"cid\": %u, \"correlation\": ", api->id);
    if (m == M_SET) {
        l->tail = frag_fmt(a, ", \"dst\": \"0x7f12815c77f0\", \"value\": \"0\", "
                           "\"bytes\": \"%u\"%s", d->bytes, EV_CLOSE);
        return;
    }
    /* roctracer's hipMemcpyKind: 1 HtoD, 2 DtoH, 3 DtoD */
    l->tail = frag_fmt(a, ", \"src\": \"0x7f2c4bc00200\", \"dst\": \"0x7f12815c77f0\", "
                       "\"bytes\": \"%u\", \"kind\": \"%d\"%s",
                       d->bytes, m == M_HTOD ? 1 : m == M_DTOH ? 2 : 3, EV_CLOSE);
}

static void build_rt_frags(struct arena *a, const struct platform *pf, struct xfrags *x,
                           const struct api_def *api)
{
    x->head = head_x(a, api->cat, api->name, pf->cpu_pid, pf->cpu_pid);
    x->pre_corr = frag_fmt(a, "      \"%s\": %u, \"correlation\": ",
                           pf->amd ? "cid" : "cbid", api->id);
    x->tail = frag_fmt(a, "%s", EV_CLOSE);
}

static void build_cpu_frags(struct arena *a, const struct platform *pf, struct frags *fr)
{
    for (int c = 1; c < C_COUNT; c++) {
        fr->cpu[c].head = head_x(a, "cpu_op", cpu_defs[c].name, pf->cpu_pid, pf->cpu_pid);
        fr->cpu[c].tail = frag_fmt(a, ",\"Record function id\": 0, %s, \"Ev Idx\": ",
                                   cpu_defs[c].args);
    }
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < ANN_KINDS; k++) {
            fr->ann[e][k] = head_x(a, "user_annotation", ann_names[e][k],
                                   pf->cpu_pid, pf->cpu_pid);
            fr->gpu_ann[e][k] = head_x(a, "gpu_user_annotation", ann_names[e][k],
                                       0, pf->streams[S_MAIN]);
        }
}

static void build_python_frags(struct arena *a, const struct platform *pf,
                               unsigned layers, struct frags *fr)
{
    unsigned pid = pf->cpu_pid;
    for (int i = 0; i < PY_STEP_DEPTH; i++)
        fr->py_step[i] = head_x(a, "python_function", py_step_names[i], pid, pid);
    for (int i = 0; i < PY_LAYER_EVENTS; i++)
        if (py_layer_names[i])
            fr->py_layer[i] = head_x(a, "python_function", py_layer_names[i], pid, pid);
    for (unsigned l = 0; l < layers; l++)
        fr->py_module[l] = frag_fmt(a, "  {\n    \"ph\": \"X\", \"cat\": \"python_function\", "
                                    "\"name\": \"nn.Module: Qwen3MoeDecoderLayer_%u\", "
                                    "\"pid\": %u, \"tid\": %u,\n    \"ts\": ", l, pid, pid);
    for (int i = 0; i < 3; i++)
        fr->py_tail[i] = head_x(a, "python_function", py_tail_names[i], pid, pid);
}

static void build_frags(struct arena *a, const struct platform *pf, unsigned layers,
                        struct frags *fr)
{
    for (int r = 0; r < R_COUNT; r++)
        if (pf->kernels[r].name) {
            build_kernel_frags(a, pf, &pf->kernels[r], &fr->kernel[r]);
            build_launch_frags(a, pf, &pf->kernels[r], &fr->launch[r]);
        }
    for (int m = 1; m < M_COUNT; m++)
        build_mem_frags(a, pf, (enum mem_kind)m, fr);
    for (int i = 0; i < API_COUNT; i++)
        build_rt_frags(a, pf, &fr->rt[i], &pf->apis[i]);
    build_cpu_frags(a, pf, fr);
    build_python_frags(a, pf, layers, fr);
    fr->flow_s_mid = frag_fmt(a, ", \"pid\": %u, \"tid\": %u, \"ts\": ",
                              pf->cpu_pid, pf->cpu_pid);
    for (int s = 0; s < S_COUNT; s++)
        fr->flow_f_mid[s] = frag_fmt(a, ", \"pid\": 0, \"tid\": %u, \"ts\": ", pf->streams[s]);
}

/* ------------------------------------------------------------------ */
/* truth: exact facts of what was written                              */

enum cat {
    CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_CPU_OP, CAT_RUNTIME, CAT_DRIVER,
    CAT_USER_ANN, CAT_GPU_USER_ANN, CAT_PYTHON, CAT_FLOW, CAT_METADATA,
    CAT_OTHER, CAT_COUNT
};

static const char *const cat_names[CAT_COUNT] = {
    "kernel", "gpu_memcpy", "gpu_memset", "cpu_op", "cuda_runtime", "cuda_driver",
    "user_annotation", "gpu_user_annotation", "python_function", "flow",
    "metadata", "other",
};

struct kstat { uint64_t count, total, min, max; };

struct truth {
    uint64_t cat[CAT_COUNT];
    struct kstat kern[R_COUNT];
    struct kstat mem[M_COUNT];
    uint64_t busy, busy_end;        /* union of kernel intervals */
    uint64_t first_ts, last_end;    /* all events but metadata */
    uint64_t gpu_first, gpu_last;   /* kernels */
};

static void truth_init(struct truth *t)
{
    memset(t, 0, sizeof *t);
    t->first_ts = t->gpu_first = UINT64_MAX;
    for (int i = 0; i < R_COUNT; i++)
        t->kern[i].min = UINT64_MAX;
    for (int i = 0; i < M_COUNT; i++)
        t->mem[i].min = UINT64_MAX;
}

static void seen(struct truth *t, enum cat c, uint64_t ts, uint64_t dur)
{
    t->cat[c]++;
    if (ts < t->first_ts)
        t->first_ts = ts;
    if (ts + dur > t->last_end)
        t->last_end = ts + dur;
}

static void kstat_add(struct kstat *k, uint64_t dur)
{
    k->count++;
    k->total += dur;
    if (dur < k->min)
        k->min = dur;
    if (dur > k->max)
        k->max = dur;
}

/* ------------------------------------------------------------------ */
/* the step plan: every time and id of one step, recomputed per pass   */

enum gpu_kind { G_KERNEL, G_MEM };

struct gpu_inst {
    uint8_t kind;               /* enum gpu_kind */
    uint8_t id;                 /* role or mem kind */
    uint64_t launch_ts, launch_dur;
    uint64_t ts, dur;
    uint64_t corr;
};

struct rt_inst {
    uint8_t api;
    uint64_t ts, dur, corr;
};

struct op_inst {
    const struct op_spec *spec;
    uint64_t ext;               /* External id of the cpu_op; 0 when none */
    uint64_t ts, dur;
    uint64_t view_ts[MAX_VIEWS], view_dur[MAX_VIEWS];
    uint32_t first_gpu, n_gpu;
    int16_t rt_before, rt_after;  /* index in plan.rt or -1 */
};

struct step_plan {
    uint64_t step;
    int extend;
    uint64_t start, last_op_end, cpu_end;
    uint64_t ann_ext;           /* execute_ annotation; step[...] is +1 */
    uint64_t cpu_ev0;           /* Ev Idx of the first CPU event */
    struct op_inst ops[MAX_OPS];
    struct gpu_inst gpu[MAX_GPU];
    struct rt_inst rt[MAX_RT];
    size_t n_gpu, n_rt;
    uint64_t busy_iv[MAX_GPU][2];   /* scratch for the busy-time merge */
};

struct clock { uint64_t cpu, gpu; };

struct gen {
    const struct platform *pf;
    unsigned layers;
    uint64_t seed, steps;
    struct frags fr;
    /* the step program, expanded: prologue, layers, epilogue */
    const struct op_spec *prog[MAX_OPS];
    size_t n_prog, layer_first, layer_ops, layer_attn_ops, epi_first;
    uint64_t ext_per_step, corr_per_step, py_per_step;
    struct step_plan *plan;
    struct truth *truth;
    struct sink *out;
};

static int op_present(const struct platform *pf, const struct op_spec *op)
{
    if (op->cpu != C_NONE || op->mem != M_NONE)
        return 1;
    for (int i = 0; i < 3; i++)
        if (op->roles[i] != R_NONE && pf->kernels[op->roles[i]].name)
            return 1;
    return 0;
}

static size_t append_ops(struct gen *g, const struct op_spec *ops, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (op_present(g->pf, &ops[i])) {
            g->prog[g->n_prog++] = &ops[i];
            kept++;
        }
    return kept;
}

/* Fixed per-step counts: ids shift by these per step. */
static void count_program(struct gen *g)
{
    g->ext_per_step = 2;                        /* the two annotations */
    g->corr_per_step = 0;
    for (size_t i = 0; i < g->n_prog; i++) {
        const struct op_spec *op = g->prog[i];
        if (op->cpu != C_NONE)
            g->ext_per_step += op->views + 1u;
        for (int k = 0; k < 3; k++)
            if (op->roles[k] != R_NONE && g->pf->kernels[op->roles[k]].name)
                g->corr_per_step++;
        g->corr_per_step += (op->mem != M_NONE) + (op->rt_before != API_COUNT) +
                            (op->rt_after != API_COUNT);
    }
    g->py_per_step = PY_STEP_DEPTH + (uint64_t)PY_LAYER_EVENTS * g->layers + 2 + BATCH;
}

static void build_program(struct gen *g)
{
    const size_t n_layer = sizeof layer_ops / sizeof layer_ops[0];
    g->n_prog = 0;
    append_ops(g, prologue_ops, sizeof prologue_ops / sizeof prologue_ops[0]);
    g->layer_first = g->n_prog;
    g->layer_attn_ops = append_ops(g, layer_ops, LAYER_ATTN_OPS);
    g->layer_ops = g->layer_attn_ops +
                   append_ops(g, layer_ops + LAYER_ATTN_OPS, n_layer - LAYER_ATTN_OPS);
    for (unsigned l = 1; l < g->layers; l++)
        for (size_t i = 0; i < g->layer_ops; i++)
            g->prog[g->n_prog++] = g->prog[g->layer_first + i];
    g->epi_first = g->n_prog;
    append_ops(g, epilogue_ops, sizeof epilogue_ops / sizeof epilogue_ops[0]);
    count_program(g);
}

static uint64_t sample_dur(struct rng *r, uint64_t mean, unsigned jitter_pct, uint64_t scale)
{
    uint64_t span = mean * jitter_pct / 100;
    uint64_t d = mean - span + rng_below(r, 2 * span + 1);
    if (rng_below(r, 64) == 0)      /* a rare slow outlier: real tails are long */
        d = d * (150 + rng_below(r, 150)) / 100;
    d *= scale;
    return d < 600 ? 600 : d;
}

/* GPU-side bookkeeping while planning one step. */
struct gpu_clock { uint64_t cursor, max_end; };

static uint64_t plan_gpu(struct gen *g, struct rng *r, uint8_t kind, uint8_t id,
                         uint64_t *t, uint64_t *corr, struct gpu_clock *gc)
{
    struct step_plan *pl = g->plan;
    struct gpu_inst *x = &pl->gpu[pl->n_gpu++];
    int side = 0;
    x->kind = kind;
    x->id = id;
    x->launch_ts = *t;
    x->launch_dur = rng_range(r, g->pf->launch_min_ns, g->pf->launch_max_ns);
    x->corr = (*corr)++;
    uint64_t ready = x->launch_ts + rng_range(r, 4000, 9000);
    if (kind == G_KERNEL) {
        const struct kernel_def *k = &g->pf->kernels[id];
        side = k->stream != S_MAIN;
        x->dur = sample_dur(r, k->mean_ns, k->jitter_pct,
                            pl->extend && k->scales ? EXTEND_SCALE : 1);
    } else
        x->dur = sample_dur(r, mem_defs[id].mean_ns, 20, 1);
    /* the main stream queues; the side stream starts as soon as launched,
     * so it can overlap main-stream kernels and break file ts order */
    x->ts = side || ready > gc->cursor ? ready : gc->cursor;
    if (!side)
        gc->cursor = x->ts + x->dur + rng_range(r, 500, 1500);
    if (x->ts + x->dur > gc->max_end)
        gc->max_end = x->ts + x->dur;
    *t = x->launch_ts + x->launch_dur + rng_range(r, 500, 2000);
    return x->ts;
}

static int16_t plan_rt(struct gen *g, struct rng *r, uint8_t api, uint64_t *t,
                       uint64_t *corr, const struct gpu_clock *gc)
{
    struct step_plan *pl = g->plan;
    struct rt_inst *x = &pl->rt[pl->n_rt];
    x->api = api;
    x->ts = *t;
    x->dur = rng_range(r, 200, 3000);
    x->corr = (*corr)++;
    if (api == API_STREAM_SYNC) {       /* blocks until the GPU is done */
        uint64_t done = gc->max_end + rng_range(r, 2000, 5000);
        if (done > x->ts + x->dur)
            x->dur = done - x->ts;
    }
    *t = x->ts + x->dur + rng_range(r, 500, 2000);
    return (int16_t)pl->n_rt++;
}

static void plan_op(struct gen *g, struct rng *r, struct op_inst *op, uint64_t *c,
                    uint64_t *ext, uint64_t *corr, struct gpu_clock *gc)
{
    const struct op_spec *s = op->spec;
    op->ext = 0;
    if (s->cpu != C_NONE) {
        for (unsigned v = 0; v < s->views; v++) {
            op->view_ts[v] = *c;
            op->view_dur[v] = rng_range(r, 1500, 6000);
            *c += op->view_dur[v] + rng_range(r, 300, 1500);
        }
        *ext += s->views;
        op->ext = (*ext)++;
    }
    op->ts = *c;
    uint64_t t = *c + rng_range(r, 2000, 8000);
    op->rt_before = s->rt_before == API_COUNT ? -1 : plan_rt(g, r, s->rt_before, &t, corr, gc);
    op->first_gpu = (uint32_t)g->plan->n_gpu;
    for (int k = 0; k < 3; k++)
        if (s->roles[k] != R_NONE && g->pf->kernels[s->roles[k]].name)
            plan_gpu(g, r, G_KERNEL, s->roles[k], &t, corr, gc);
    if (s->mem != M_NONE)
        plan_gpu(g, r, G_MEM, s->mem, &t, corr, gc);
    op->n_gpu = (uint32_t)g->plan->n_gpu - op->first_gpu;
    op->rt_after = s->rt_after == API_COUNT ? -1 : plan_rt(g, r, s->rt_after, &t, corr, gc);
    op->dur = t + rng_range(r, 500, 2000) - op->ts;
    *c = op->ts + op->dur + rng_range(r, 500, 3000);
}

/* Plans step `step` starting at *clk and advances *clk to the next step. */
static void plan_step(struct gen *g, uint64_t step, struct clock *clk)
{
    struct step_plan *pl = g->plan;
    struct rng r = { splitmix64(g->seed ^ splitmix64(step)) };
    pl->step = step;
    pl->extend = step % EXTEND_EVERY == EXTEND_EVERY - 1;
    pl->start = clk->cpu;
    pl->ann_ext = EXT0 + step * g->ext_per_step;
    pl->cpu_ev0 = step * g->ext_per_step;      /* one Ev Idx per External id */
    pl->n_gpu = pl->n_rt = 0;

    uint64_t ext = pl->ann_ext + 2;
    uint64_t corr = CORR0 + step * g->corr_per_step;
    uint64_t c = pl->start + rng_range(&r, 2000, 6000);
    struct gpu_clock gc = { clk->gpu, clk->gpu };
    for (size_t i = 0; i < g->n_prog; i++) {
        pl->ops[i].spec = g->prog[i];
        plan_op(g, &r, &pl->ops[i], &c, &ext, &corr, &gc);
    }
    struct op_inst *last = &pl->ops[g->n_prog - 1];
    pl->last_op_end = last->ts + last->dur;
    pl->cpu_end = pl->last_op_end + 60000;     /* output processing */
    clk->cpu = pl->cpu_end + rng_range(&r, 40000, 200000);
    clk->gpu = gc.max_end;
}

/* ------------------------------------------------------------------ */
/* event writers                                                        */

static const char DUR[] = ", \"dur\": ";
static const char ARGS_EXT[] = ",\n    \"args\": {\n      \"External id\": ";
static const char ARGS_OPEN[] = ",\n    \"args\": {\n      ";

/* Any X event with a correlation: kernels, launches, runtime calls. */
static char *put_x_corr(char *p, const struct xfrags *f, uint64_t ts, uint64_t dur,
                        uint64_t ext, uint64_t corr)
{
    p = put(p, f->head);
    p = put_us(p, ts);
    p = PUT_LIT(p, DUR);
    p = put_us(p, dur);
    if (ext) {
        p = PUT_LIT(p, ARGS_EXT);
        p = put_u64(p, ext);
        *p++ = ',';
    } else
        p = PUT_LIT(p, ARGS_OPEN);
    p = put(p, f->pre_corr);
    p = put_u64(p, corr);
    return put(p, f->tail);
}

static void emit_x_corr(struct gen *g, const struct xfrags *f, enum cat c,
                        uint64_t ts, uint64_t dur, uint64_t ext, uint64_t corr)
{
    char *p = ev_begin(g->out);
    ev_end(g->out, put_x_corr(p, f, ts, dur, ext, corr));
    seen(g->truth, c, ts, dur);
}

static void emit_flow(struct gen *g, char ph, uint64_t corr, struct frag mid, uint64_t ts)
{
    char *p = ev_begin(g->out);
    if (ph == 's')
        p = PUT_LIT(p, "  {\n    \"ph\": \"s\", \"id\": ");
    else
        p = PUT_LIT(p, "  {\n    \"ph\": \"f\", \"id\": ");
    p = put_u64(p, corr);
    p = put(p, mid);
    p = put_us(p, ts);
    if (ph == 's')
        p = PUT_LIT(p, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  }");
    else
        p = PUT_LIT(p, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }");
    ev_end(g->out, p);
    seen(g->truth, CAT_FLOW, ts, 0);
}

static void emit_cpu_op(struct gen *g, enum cpu_kind c, uint64_t ts, uint64_t dur,
                        uint64_t ext, uint64_t ev)
{
    char *p = ev_begin(g->out);
    p = put(p, g->fr.cpu[c].head);
    p = put_us(p, ts);
    p = PUT_LIT(p, DUR);
    p = put_us(p, dur);
    p = PUT_LIT(p, ARGS_EXT);
    p = put_u64(p, ext);
    p = put(p, g->fr.cpu[c].tail);
    p = put_u64(p, ev);
    ev_end(g->out, PUT_LIT(p, EV_CLOSE));
    seen(g->truth, CAT_CPU_OP, ts, dur);
}

static void emit_user_ann(struct gen *g, struct frag head, uint64_t ts, uint64_t dur,
                          uint64_t ext, uint64_t ev)
{
    char *p = ev_begin(g->out);
    p = put(p, head);
    p = put_us(p, ts);
    p = PUT_LIT(p, DUR);
    p = put_us(p, dur);
    p = PUT_LIT(p, ARGS_EXT);
    p = put_u64(p, ext);
    p = PUT_LIT(p, ",\"Record function id\": 0, \"Ev Idx\": ");
    p = put_u64(p, ev);
    ev_end(g->out, PUT_LIT(p, EV_CLOSE));
    seen(g->truth, CAT_USER_ANN, ts, dur);
}

static void emit_gpu_ann(struct gen *g, struct frag head, uint64_t ts, uint64_t dur,
                         uint64_t ext)
{
    char *p = ev_begin(g->out);
    p = put(p, head);
    p = put_us(p, ts);
    p = PUT_LIT(p, DUR);
    p = put_us(p, dur);
    p = PUT_LIT(p, ARGS_EXT);
    p = put_u64(p, ext);
    ev_end(g->out, PUT_LIT(p, EV_CLOSE));
    seen(g->truth, CAT_GPU_USER_ANN, ts, dur);
}

/* parent 0 means a root frame: Kineto writes "Python parent id": null. */
static void emit_python(struct gen *g, struct frag head, uint64_t ts, uint64_t dur,
                        uint64_t id, uint64_t parent, uint64_t ev)
{
    char *p = ev_begin(g->out);
    p = put(p, head);
    p = put_us(p, ts);
    p = PUT_LIT(p, DUR);
    p = put_us(p, dur);
    p = PUT_LIT(p, ",\n    \"args\": {\n      \"Python parent id\": ");
    if (parent)
        p = put_u64(p, parent);
    else
        p = PUT_LIT(p, "null");
    p = PUT_LIT(p, ", \"Python id\": ");
    p = put_u64(p, id);
    p = PUT_LIT(p, ", \"Ev Idx\": ");
    p = put_u64(p, ev);
    ev_end(g->out, PUT_LIT(p, EV_CLOSE));
    seen(g->truth, CAT_PYTHON, ts, dur);
}

static void emit_mem(struct gen *g, const struct gpu_inst *x, uint64_t ext)
{
    const struct mem_def *d = &mem_defs[x->id];
    char bw[40];
    /* bytes per ns is GB/s; Kineto prints a full-precision double */
    int n = snprintf(bw, sizeof bw, "%.17g", (double)d->bytes / (double)x->dur);
    char *p = ev_begin(g->out);
    p = put_x_corr(p, &g->fr.mem[x->id], x->ts, x->dur, ext, x->corr);
    p = put_u64(p, d->bytes);
    p = PUT_LIT(p, ", \"memory bandwidth (GB/s)\": ");
    memcpy(p, bw, (size_t)n);
    ev_end(g->out, PUT_LIT(p + n, EV_CLOSE));
    seen(g->truth, x->id == M_SET ? CAT_MEMSET : CAT_MEMCPY, x->ts, x->dur);
    kstat_add(&g->truth->mem[x->id], x->dur);
}

/* ------------------------------------------------------------------ */
/* one step, per pass                                                   */

static void emit_cpu_step(struct gen *g)
{
    const struct step_plan *pl = g->plan;
    uint64_t ev = pl->cpu_ev0;
    struct frag const *ann = g->fr.ann[pl->extend];
    emit_user_ann(g, ann[ANN_EXEC], pl->start, pl->cpu_end - 20000 - pl->start,
                  pl->ann_ext, ev++);
    emit_user_ann(g, ann[ANN_STEP], pl->start + 1000, pl->last_op_end + 500 - pl->start - 1000,
                  pl->ann_ext + 1, ev++);
    for (size_t i = 0; i < g->n_prog; i++) {
        const struct op_inst *op = &pl->ops[i];
        const struct op_spec *s = op->spec;
        if (s->cpu == C_NONE)
            continue;
        for (unsigned v = 0; v < s->views; v++)
            emit_cpu_op(g, v % 2 ? C_AS_STRIDED : (s->cpu == C_MM_QKV ? C_VIEW : C_SLICE),
                        op->view_ts[v], op->view_dur[v], op->ext - s->views + v, ev++);
        emit_cpu_op(g, (enum cpu_kind)s->cpu, op->ts, op->dur, op->ext, ev++);
    }
}

struct py_ctx { uint64_t id0, ev0; };

static void emit_py(struct gen *g, const struct py_ctx *c, struct frag head,
                    uint64_t ts, uint64_t end, uint64_t idx, uint64_t parent_idx)
{
    emit_python(g, head, ts, end - ts, c->id0 + idx,
                parent_idx == UINT64_MAX ? 0 : c->id0 + parent_idx, c->ev0 + idx);
}

static uint64_t op_end(const struct op_inst *op) { return op->ts + op->dur; }

/* Layer frames sit around the layer's ops; idx is the first event index. */
static void emit_py_layer(struct gen *g, const struct py_ctx *c, unsigned l, uint64_t idx)
{
    const struct op_inst *ops = g->plan->ops + g->layer_first + (size_t)l * g->layer_ops;
    const struct op_inst *attn_last = &ops[g->layer_attn_ops - 1];
    const struct op_inst *moe_first = &ops[g->layer_attn_ops];
    const struct op_inst *last = &ops[g->layer_ops - 1];
    const struct frag *h = g->fr.py_layer;
    uint64_t a = ops[0].ts, b = op_end(last);

    emit_py(g, c, h[0], a - 500, b + 500, idx, PY_STEP_DEPTH - 1);
    emit_py(g, c, h[1], a - 400, b + 400, idx + 1, idx);
    emit_py(g, c, g->fr.py_module[l], a - 300, b + 300, idx + 2, idx + 1);
    emit_py(g, c, h[3], a - 200, b + 200, idx + 3, idx + 2);
    emit_py(g, c, h[4], a - 100, op_end(attn_last) + 100, idx + 4, idx + 3);
    emit_py(g, c, h[5], a - 80, a - 20, idx + 5, idx + 4);
    emit_py(g, c, h[6], moe_first->ts - 100, b + 100, idx + 6, idx + 3);
    emit_py(g, c, h[7], moe_first->ts - 80, moe_first->ts - 30, idx + 7, idx + 6);
}

static void emit_python_step(struct gen *g)
{
    const struct step_plan *pl = g->plan;
    struct py_ctx c = { PY_ID0 + pl->step * g->py_per_step,
                        g->steps * g->ext_per_step + pl->step * g->py_per_step };
    const struct op_inst *first = &pl->ops[0], *epi = &pl->ops[g->epi_first];
    const struct op_inst *l0 = &pl->ops[g->layer_first], *ln = &pl->ops[g->epi_first - 1];
    uint64_t s = pl->start, end = pl->last_op_end;
    const uint64_t bounds[PY_STEP_DEPTH][2] = {
        { s - 8000, pl->cpu_end + 5000 }, { s - 6000, pl->cpu_end + 3000 },
        { s - 4000, end + 2000 }, { first->ts - 1000, end + 1000 },
        { first->ts - 700, end + 700 }, { l0->ts - 600, op_end(ln) + 600 },
    };
    /* each frame's parent is the previous one; i - 1 wraps to "none" at 0 */
    for (uint64_t i = 0; i < PY_STEP_DEPTH; i++)
        emit_py(g, &c, g->fr.py_step[i], bounds[i][0], bounds[i][1], i, i - 1);
    uint64_t idx = PY_STEP_DEPTH;
    for (unsigned l = 0; l < g->layers; l++, idx += PY_LAYER_EVENTS)
        emit_py_layer(g, &c, l, idx);
    emit_py(g, &c, g->fr.py_tail[0], epi[0].ts - 100, op_end(&epi[1]) + 100, idx, 3);
    emit_py(g, &c, g->fr.py_tail[1], epi[2].ts - 100, end + 100, idx + 1, 3);
    for (uint64_t i = 0; i < BATCH; i++)
        emit_py(g, &c, g->fr.py_tail[2], end + 2000 + i * 1500, end + 2700 + i * 1500,
                idx + 2 + i, 1);
}

/* A runtime call with no GPU work still gets a flow event on the CPU
 * thread ('s' or 'f' depending on the call), as Kineto writes it. */
static void emit_rt(struct gen *g, const struct rt_inst *x)
{
    const struct api_def *api = &g->pf->apis[x->api];
    emit_x_corr(g, &g->fr.rt[x->api], CAT_RUNTIME, x->ts, x->dur, 0, x->corr);
    emit_flow(g, api->flow, x->corr, g->fr.flow_s_mid, x->ts);
}

static void emit_launch(struct gen *g, const struct gpu_inst *x, uint64_t ext)
{
    const struct xfrags *f = x->kind == G_KERNEL ? &g->fr.launch[x->id]
                                                 : &g->fr.mem_launch[x->id];
    const struct api_def *api = x->kind == G_KERNEL
        ? &g->pf->apis[g->pf->kernels[x->id].api]
        : &g->pf->apis[x->id == M_SET ? API_MEMSET : API_MEMCPY];
    enum cat c = strcmp(api->cat, "cuda_driver") == 0 ? CAT_DRIVER : CAT_RUNTIME;
    emit_x_corr(g, f, c, x->launch_ts, x->launch_dur, ext, x->corr);
    emit_flow(g, 's', x->corr, g->fr.flow_s_mid, x->launch_ts);
}

static void emit_activity(struct gen *g, const struct gpu_inst *x, uint64_t ext)
{
    if (x->kind == G_MEM) {
        emit_mem(g, x, ext);
        emit_flow(g, 'f', x->corr, g->fr.flow_f_mid[S_MAIN], x->ts);
        return;
    }
    struct truth *t = g->truth;
    emit_x_corr(g, &g->fr.kernel[x->id], CAT_KERNEL, x->ts, x->dur, ext, x->corr);
    emit_flow(g, 'f', x->corr, g->fr.flow_f_mid[g->pf->kernels[x->id].stream], x->ts);
    kstat_add(&t->kern[x->id], x->dur);
    if (x->ts < t->gpu_first)
        t->gpu_first = x->ts;
    if (x->ts + x->dur > t->gpu_last)
        t->gpu_last = x->ts + x->dur;
}

/* NVIDIA: each kernel is written just before its launch (as Kineto does);
 * AMD: the step's runtime calls first, then its GPU activities. */
static void emit_op_gpu(struct gen *g, const struct op_inst *op, int launches, int activities)
{
    const struct step_plan *pl = g->plan;
    if (launches && op->rt_before >= 0)
        emit_rt(g, &pl->rt[op->rt_before]);
    for (uint32_t k = 0; k < op->n_gpu; k++) {
        const struct gpu_inst *x = &pl->gpu[op->first_gpu + k];
        if (activities)
            emit_activity(g, x, op->ext);
        if (launches)
            emit_launch(g, x, op->ext);
    }
    if (launches && op->rt_after >= 0)
        emit_rt(g, &pl->rt[op->rt_after]);
}

static int cmp_interval(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Busy time is the union of kernel intervals.  Steps never overlap on the
 * GPU (each ends with a stream sync), so sorting within a step and carrying
 * the merge front across steps is exact. */
static void add_busy(struct gen *g)
{
    struct step_plan *pl = g->plan;
    uint64_t (*iv)[2] = pl->busy_iv;
    size_t n = 0;
    for (size_t i = 0; i < pl->n_gpu; i++)
        if (pl->gpu[i].kind == G_KERNEL) {
            iv[n][0] = pl->gpu[i].ts;
            iv[n][1] = pl->gpu[i].ts + pl->gpu[i].dur;
            n++;
        }
    qsort(iv, n, sizeof iv[0], cmp_interval);
    struct truth *t = g->truth;
    for (size_t i = 0; i < n; i++) {
        if (iv[i][1] <= t->busy_end)
            continue;
        t->busy += iv[i][1] - (iv[i][0] > t->busy_end ? iv[i][0] : t->busy_end);
        t->busy_end = iv[i][1];
    }
}

static void emit_gpu_step(struct gen *g)
{
    const struct step_plan *pl = g->plan;
    if (g->pf->amd) {
        for (size_t i = 0; i < g->n_prog; i++)
            emit_op_gpu(g, &pl->ops[i], 1, 0);
        for (size_t i = 0; i < g->n_prog; i++)
            emit_op_gpu(g, &pl->ops[i], 0, 1);
    } else
        for (size_t i = 0; i < g->n_prog; i++)
            emit_op_gpu(g, &pl->ops[i], 1, 1);
    add_busy(g);
}

static void emit_gpu_ann_step(struct gen *g)
{
    const struct step_plan *pl = g->plan;
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t i = 0; i < pl->n_gpu; i++) {
        if (pl->gpu[i].ts < first)
            first = pl->gpu[i].ts;
        if (pl->gpu[i].ts + pl->gpu[i].dur > last)
            last = pl->gpu[i].ts + pl->gpu[i].dur;
    }
    const struct frag *h = g->fr.gpu_ann[pl->extend];
    emit_gpu_ann(g, h[ANN_EXEC], first, last - first, pl->ann_ext);
    emit_gpu_ann(g, h[ANN_STEP], first + 1, last - first - 2, pl->ann_ext + 1);
}

/* ------------------------------------------------------------------ */
/* fixed parts: header, overhead, metadata, tail                        */

/* Small fixed events go through snprintf; there are only a few dozen. */
static void emit_fmt(struct gen *g, enum cat c, uint64_t ts, uint64_t dur, const char *fmt, ...)
{
    char *p = ev_begin(g->out);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p, EVENT_MAX - 2, fmt, ap);
    va_end(ap);
    ev_end(g->out, p + n);
    if (c == CAT_METADATA)
        g->truth->cat[c]++;             /* metadata is not part of the span */
    else
        seen(g->truth, c, ts, dur);
}

static void emit_header(struct gen *g)
{
    char dist[1024], tail[512];
    const struct platform *pf = g->pf;
    int n = snprintf(dist, sizeof dist, DIST_INFO, pf->amd ? "2.27.7" : "2.28.9");
    uint64_t id = splitmix64(g->seed);
    int m = snprintf(tail, sizeof tail,
                     "      \"record_shapes\": 1,\n      \"with_stack\": 1,\n"
                     "      \"trace_id\": \"%016" PRIX64 "%016" PRIX64 "\",\n"
                     "  \"displayTimeUnit\": \"ms\",\n"
                     "  \"baseTimeNanoseconds\": " BASE_TIME_NS ",\n"
                     "  \"traceEvents\": [\n", id, splitmix64(id));
    sink_write(g->out, pf->header, strlen(pf->header));
    sink_write(g->out, dist, (size_t)n);
    sink_write(g->out, tail, (size_t)m);
    g->out->first_event = 1;
}

static void emit_overhead(struct gen *g)
{
    uint64_t ts = T0_NS + 800377, dur = 582686;
    char a[32], b[32];
    *put_us(a, ts) = '\0';
    *put_us(b, dur) = '\0';
    emit_fmt(g, CAT_OTHER, ts, dur,
             "  {\n    \"ph\": \"X\", \"cat\": \"overhead\", \"name\": \"Activity Buffer Request\", "
             "\"pid\": -1, \"tid\": 0,\n    \"ts\": %s, \"dur\": %s\n  }", a, b);
}

static void emit_meta(struct gen *g, const char *name, unsigned pid, unsigned tid,
                      const char *key, const char *sval, uint64_t ival)
{
    char ts[32], val[160];
    *put_us(ts, T0_NS + 146204) = '\0';
    if (sval)
        snprintf(val, sizeof val, "\"%s\"", sval);
    else
        snprintf(val, sizeof val, "%" PRIu64, ival);
    emit_fmt(g, CAT_METADATA, 0, 0,
             "  {\n    \"name\": \"%s\", \"ph\": \"M\", \"ts\": %s, \"pid\": %u, \"tid\": %u,\n"
             "    \"args\": {\n      \"%s\": %s\n    }\n  }", name, ts, pid, tid, key, val);
}

static void emit_metadata(struct gen *g)
{
    const struct platform *pf = g->pf;
    char label[32], tname[64];
    emit_meta(g, "process_name", pf->cpu_pid, 0, "name", "sglang::scheduler", 0);
    emit_meta(g, "process_labels", pf->cpu_pid, 0, "labels", "CPU", 0);
    emit_meta(g, "process_sort_index", pf->cpu_pid, 0, "sort_index", NULL, pf->cpu_pid);
    for (unsigned d = 0; d < GPU_PIDS; d++) {
        snprintf(label, sizeof label, "GPU %u", d);
        emit_meta(g, "process_name", d, 0, "name", "sglang::scheduler", 0);
        emit_meta(g, "process_labels", d, 0, "labels", label, 0);
        emit_meta(g, "process_sort_index", d, 0, "sort_index", NULL, 5000000u + d);
    }
    for (int s = 0; s < S_COUNT; s++) {
        snprintf(tname, sizeof tname, "stream %u ", pf->streams[s]);
        emit_meta(g, "thread_name", 0, pf->streams[s], "name", tname, 0);
        emit_meta(g, "thread_sort_index", 0, pf->streams[s], "sort_index", NULL,
                  pf->streams[s]);
    }
    snprintf(tname, sizeof tname, "thread %u (sglang::schedul)", pf->cpu_pid);
    emit_meta(g, "thread_name", pf->cpu_pid, pf->cpu_pid, "name", tname, 0);
    emit_meta(g, "thread_sort_index", pf->cpu_pid, pf->cpu_pid, "sort_index", NULL,
              pf->cpu_pid);
}

/* The profiler's own span and window markers, with string pids. */
static void emit_tail(struct gen *g, uint64_t end_ns)
{
    uint64_t start = T0_NS - 50000, stop = end_ns + 100000, window_end = end_ns + 150000;
    char a[32], b[32], c[32];
    *put_us(a, start) = '\0';
    *put_us(b, stop - start) = '\0';
    *put_us(c, window_end) = '\0';
    emit_fmt(g, CAT_OTHER, start, stop - start,
             "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": %s, \"dur\": %s,\n"
             "    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
             "    \"name\": \"PyTorch Profiler (0)\",\n"
             "    \"args\": {\n      \"Op count\": 0\n    }\n  }", a, b);
    emit_fmt(g, CAT_METADATA, 0, 0,
             "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": %s,\n"
             "    \"pid\": \"Spans\", \"tid\": 0,\n"
             "    \"args\": {\n      \"sort_index\": 536870912\n    }\n  }", a);
    emit_fmt(g, CAT_OTHER, start, 0,
             "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
             "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": %s\n  }", a);
    emit_fmt(g, CAT_OTHER, window_end, 0,
             "  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
             "    \"pid\": \"\", \"tid\": \"\", \"ts\": %s\n  }", c);
}

static void emit_footer(struct gen *g)
{
    static const char foot[] = "\n  ],\n  \"traceName\": \"/tmp/gen_trace.json\"\n}\n";
    sink_write(g->out, foot, sizeof foot - 1);
}

/* ------------------------------------------------------------------ */
/* whole trace                                                          */

typedef void (*step_fn)(struct gen *g);

/* One pass over all steps; every pass replays the same clock. */
static struct clock run_pass(struct gen *g, step_fn fn)
{
    struct clock clk = { T0_NS, T0_NS };
    for (uint64_t s = 0; s < g->steps; s++) {
        plan_step(g, s, &clk);
        fn(g);
    }
    return clk;
}

static void generate(struct gen *g)
{
    emit_header(g);
    run_pass(g, emit_cpu_step);
    run_pass(g, emit_python_step);
    emit_overhead(g);
    run_pass(g, emit_gpu_step);
    struct clock end = run_pass(g, emit_gpu_ann_step);
    emit_metadata(g);
    emit_tail(g, end.cpu);
    emit_footer(g);
    sink_flush(g->out);
}

/* Bytes of a whole trace of `steps` steps, counted without writing. */
static uint64_t count_bytes(struct gen *g, uint64_t steps)
{
    struct truth scratch;
    struct sink *real = g->out, counter = *real;
    struct truth *real_truth = g->truth;
    truth_init(&scratch);
    counter.fd = -1;
    counter.len = 0;
    counter.flushed = 0;
    g->out = &counter;
    g->truth = &scratch;
    g->steps = steps;
    generate(g);
    g->out = real;
    g->truth = real_truth;
    return counter.flushed;
}

/* Steps for a target size: measure 8 and 16 steps, extrapolate linearly. */
static uint64_t steps_for_bytes(struct gen *g, uint64_t target)
{
    uint64_t b8 = count_bytes(g, 8), b16 = count_bytes(g, 16);
    uint64_t per_step = (b16 - b8) / 8, fixed = b8 - 8 * per_step;
    if (target <= fixed + per_step)
        return 1;
    return (target - fixed + per_step / 2) / per_step;
}

/* ------------------------------------------------------------------ */
/* truth file                                                           */

struct kname { const char *name; struct kstat st; };

static int cmp_kname(const void *a, const void *b)
{
    const struct kname *x = a, *y = b;
    if (x->st.total != y->st.total)
        return x->st.total < y->st.total ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void fprint_us(FILE *f, uint64_t ns)
{
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* Roles can share a kernel name (e.g. both fused_add_rmsnorm); merge them. */
static size_t merge_kernels(const struct gen *g, struct kname *out)
{
    size_t n = 0;
    for (int r = 0; r < R_COUNT; r++) {
        const struct kstat *k = &g->truth->kern[r];
        if (!k->count)
            continue;
        size_t j = 0;
        while (j < n && strcmp(out[j].name, g->pf->kernels[r].name) != 0)
            j++;
        if (j == n) {
            out[n].name = g->pf->kernels[r].name;
            out[n++].st = *k;
            continue;
        }
        out[j].st.count += k->count;
        out[j].st.total += k->total;
        out[j].st.min = k->min < out[j].st.min ? k->min : out[j].st.min;
        out[j].st.max = k->max > out[j].st.max ? k->max : out[j].st.max;
    }
    qsort(out, n, sizeof out[0], cmp_kname);
    return n;
}

static void write_truth_trace(FILE *f, const struct gen *g, size_t distinct,
                              uint64_t kernel_ns, uint64_t bytes)
{
    const struct truth *t = g->truth;
    const struct platform *pf = g->pf;
    uint64_t events = 0;
    for (int c = 0; c < CAT_COUNT; c++)
        events += t->cat[c];
    fprintf(f, "  \"trace\": {\"bytes\": %" PRIu64 ", \"compressed\": false, "
            "\"platform\": \"%s\", \"gpu\": \"%s\", \"device\": {\"id\": 0, "
            "\"sm_count\": %u, \"memory_bytes\": %" PRIu64 ", \"warp_size\": %u}, "
            "\"world_size\": 4, \"rank\": 0, \"base_time_ns\": " BASE_TIME_NS ",\n",
            bytes, pf->vendor, pf->gpu_name, pf->sm_count, pf->memory_bytes, pf->warp_size);
    fprintf(f, "    \"events\": %" PRIu64 ", \"kernels\": %" PRIu64
            ", \"distinct_kernels\": %zu,\n", events, t->cat[CAT_KERNEL], distinct);
    fprintf(f, "    \"kernel_time_ns\": %" PRIu64 ", \"kernel_time_us\": ", kernel_ns);
    fprint_us(f, kernel_ns);
    fprintf(f, ", \"busy_time_ns\": %" PRIu64 ", \"busy_time_us\": ", t->busy);
    fprint_us(f, t->busy);
    fprintf(f, ",\n    \"span_us\": ");
    fprint_us(f, t->last_end - t->first_ts);
    fprintf(f, ", \"gpu_span_us\": ");
    fprint_us(f, t->gpu_last - t->gpu_first);
    fprintf(f, "},\n");
}

static void write_truth_lists(FILE *f, const struct gen *g, const struct kname *k, size_t n)
{
    fprintf(f, "  \"events\": {");
    for (int c = 0; c < CAT_COUNT; c++)
        fprintf(f, "%s\"%s\": %" PRIu64, c ? ", " : "", cat_names[c], g->truth->cat[c]);
    fprintf(f, "},\n  \"kernels\": [\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "    {\"name\": \"%s\", \"count\": %" PRIu64 ", \"total_ns\": %" PRIu64
                ", \"total_us\": ", k[i].name, k[i].st.count, k[i].st.total);
        fprint_us(f, k[i].st.total);
        fprintf(f, ", \"min_us\": ");
        fprint_us(f, k[i].st.min);
        fprintf(f, ", \"max_us\": ");
        fprint_us(f, k[i].st.max);
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ],\n  \"memory\": [");
    int first = 1;
    for (int m = 1; m < M_COUNT; m++) {
        const struct kstat *s = &g->truth->mem[m];
        if (!s->count)
            continue;
        fprintf(f, "%s\n    {\"kind\": \"%s\", \"count\": %" PRIu64 ", \"total_us\": ",
                first ? "" : ",", mem_defs[m].kind, s->count);
        fprint_us(f, s->total);
        fprintf(f, ", \"bytes\": %" PRIu64 "}", s->count * mem_defs[m].bytes);
        first = 0;
    }
    fprintf(f, "\n  ]\n");
}

static int write_truth(const char *path, const struct gen *g, uint64_t bytes)
{
    struct kname k[R_COUNT];
    size_t n = merge_kernels(g, k);
    uint64_t kernel_ns = 0;
    for (size_t i = 0; i < n; i++)
        kernel_ns += k[i].st.total;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gen_trace: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"schema\": 1, \"generator\": \"gen_trace\", \"platform\": \"%s\", "
            "\"seed\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"layers\": %u,\n",
            g->pf->label, g->seed, g->steps, g->layers);
    write_truth_trace(f, g, n, kernel_ns, bytes);
    write_truth_lists(f, g, k, n);
    fprintf(f, "}\n");
    return fclose(f);
}

/* ------------------------------------------------------------------ */
/* command line                                                         */

struct options {
    uint64_t bytes, steps, seed;
    unsigned layers;
    const struct platform *pf;
    const char *truth;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gen_trace (--bytes N[K|M|G] | --steps K) [--platform nvidia|amd]\n"
            "                 [--layers L] [--seed S] [--truth FILE]\n"
            "Writes a deterministic Kineto-shaped trace to stdout.\n"
            "  --bytes N     about N bytes of JSON (K/M/G = 1e3/1e6/1e9)\n"
            "  --steps K     exactly K model steps instead\n"
            "  --platform P  nvidia (B300, default) or amd (MI300X)\n"
            "  --layers L    decoder layers per step (default 48, max %d)\n"
            "  --seed S      random seed for durations and jitter (default 1)\n"
            "  --truth FILE  write the exact counts and totals as JSON\n",
            MAX_LAYERS);
}

/* "1.5G" -> 1500000000; decimal units, matching MB = 1e6 in the bench. */
static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0)
        return -1;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1e3; end++; break;
    case 'm': case 'M': mul = 1e6; end++; break;
    case 'g': case 'G': mul = 1e9; end++; break;
    default: break;
    }
    if (*end != '\0')
        return -1;
    *out = (uint64_t)(v * mul);
    return 0;
}

static const struct platform *find_platform(const char *name)
{
    for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
        if (strcmp(platforms[i].label, name) == 0)
            return &platforms[i];
    return NULL;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    *o = (struct options){ 0, 0, 1, 48, &platforms[0], NULL };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (!v)
            return -1;
        i++;
        if (strcmp(a, "--bytes") == 0 && parse_size(v, &o->bytes) == 0)
            continue;
        if (strcmp(a, "--steps") == 0 && parse_size(v, &o->steps) == 0)
            continue;
        if (strcmp(a, "--seed") == 0 && parse_size(v, &o->seed) == 0)
            continue;
        if (strcmp(a, "--layers") == 0 && parse_size(v, &n) == 0 && n >= 1 &&
            n <= MAX_LAYERS) {
            o->layers = (unsigned)n;
            continue;
        }
        if (strcmp(a, "--platform") == 0 && (o->pf = find_platform(v)) != NULL)
            continue;
        if (strcmp(a, "--truth") == 0) {
            o->truth = v;
            continue;
        }
        return -1;
    }
    return (o->bytes > 0) != (o->steps > 0) ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_args(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    struct arena arena = { malloc(ARENA_SIZE), 0, ARENA_SIZE };
    struct sink out = { malloc(OUT_BUF), 0, OUT_BUF, 0, STDOUT_FILENO, 1 };
    struct truth truth;
    struct gen *g = calloc(1, sizeof *g);
    if (g)
        g->plan = malloc(sizeof *g->plan);
    if (!arena.base || !out.buf || !g || !g->plan) {
        fprintf(stderr, "gen_trace: out of memory\n");
        return 2;
    }
    g->pf = o.pf;
    g->layers = o.layers;
    g->seed = o.seed;
    build_frags(&arena, g->pf, g->layers, &g->fr);
    build_program(g);
    g->out = &out;
    g->steps = o.steps ? o.steps : steps_for_bytes(g, o.bytes);

    truth_init(&truth);
    g->truth = &truth;
    generate(g);
    uint64_t bytes = sink_total(&out);
    fprintf(stderr, "gen_trace: %s, %" PRIu64 " steps, %" PRIu64 " bytes\n",
            g->pf->label, g->steps, bytes);
    int rc = o.truth && write_truth(o.truth, g, bytes) != 0 ? 2 : 0;
    free(g->plan);
    free(g);
    free(out.buf);
    free(arena.base);
    return rc;
}
