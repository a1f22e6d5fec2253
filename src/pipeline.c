/*
 * pipeline.c - one analysis of one trace: reader -> parser (on several
 * threads where it pays) -> aggregates and the layer machine, into a
 * ts_result (see pipeline.h).
 */
#include "pipeline.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/comm.h"
#include "analysis/platform.h"
#include "analysis/views/module.h"
#include "input/base/strfind.h"
#include "input/pparse.h"
#include "input/reader.h"
#include "tables/gpu.h"

#define CHUNK (256 * 1024)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The serving framework, from what its Python frames and step annotations
 * name: the first to be named FRAMEWORK_SURE times, or the most named. */
static const char *const framework_names[] = {
	"SGLang", "vLLM", "TensorRT-LLM", "HF transformers", "nano-vllm", "xDiT", "diffusers",
};
/* In order: the first needle found in a name counts ("nanovllm/" holds
 * "vllm/", so it comes first). */
static const struct {
	const char *needle;
	int fw;
} framework_marks[] = {
	{ "nanovllm/", 4 }, { "nano-vllm/", 4 }, { "nano_vllm/", 4 },
	{ "xfuser/", 5 }, { "diffusers/", 6 },
	{ "sglang/", 0 }, { "step[DECODE", 0 }, { "step[EXTEND", 0 },
	{ "vllm/", 1 }, { "execute_context_", 1 },
	{ "tensorrt_llm/", 2 },
	{ "transformers/", 3 },
};
#define FRAMEWORK_SURE 16
_Static_assert(sizeof framework_names / sizeof *framework_names <= 8, "framework_hits");

static void framework_of(ts_result *res, const ts_event *ev)
{
	for (size_t i = 0; i < sizeof framework_marks / sizeof *framework_marks; i++) {
		if (!ts_has(ev->name, ev->name_len, framework_marks[i].needle))
			continue;
		int fw = framework_marks[i].fw;
		if (++res->framework_hits[fw] >= FRAMEWORK_SURE)
			res->framework = framework_names[fw];
		/* a diffusion framework's passes are denoising steps: where its
		 * frames outnumber the LLM frameworks' (the passes end after
		 * the CPU side is read, as Kineto writes it) */
		if (res->layers) {
			uint32_t llm = 0;
			for (int k = 0; k < 5; k++)
				llm += res->framework_hits[k];
			ts_layers_diffusion_seen(res->layers, res->framework_hits[5] + res->framework_hits[6] > llm);
		}
		/* a serving framework runs LLM generation (HF transformers runs
		 * encoders too: its generate loop says so; xDiT and diffusers
		 * run diffusion, no generation) */
		if (fw != 3 && fw < 5 && res->layers)
			ts_layers_framework_seen(res->layers);
		/* vLLM and TensorRT-LLM batch continuously: prompts beside the
		 * running sequences (SGLang's frames may name vLLM's modules:
		 * they count against) */
		if ((fw <= 2) && res->layers)
			ts_layers_batching(res->layers, fw == 0 ? -1 : 1);
		return;
	}
	if (res->layers && ts_has(ev->name, ev->name_len, "generation/utils.py"))
		ts_layers_framework_seen(res->layers);
}

/* The custom ops of a serving engine say how it batches: vLLM's and
 * TensorRT-LLM's continuously (their ops: vllm::, trtllm::), SGLang's not
 * (sglang::, sgl_kernel::). */
static void batching_of(ts_result *res, const ts_event *ev)
{
	if (ts_begins(ev->name, ev->name_len, "vllm::") || ts_begins(ev->name, ev->name_len, "trtllm::"))
		ts_layers_batching(res->layers, 1);
	else if (ts_begins(ev->name, ev->name_len, "sglang::") ||
		 ts_begins(ev->name, ev->name_len, "sgl_kernel::"))
		ts_layers_batching(res->layers, -1);
}

/* After the input: the most named, when none was sure. */
static void framework_decide(ts_result *res)
{
	uint32_t best = 0;
	if (res->framework)
		return;
	for (size_t i = 0; i < sizeof framework_names / sizeof *framework_names; i++)
		if (res->framework_hits[i] > best) {
			best = res->framework_hits[i];
			res->framework = framework_names[i];
		}
}

/* A kernel past the aggregates: its attribution (from a captured graph's
 * node when the replay matcher found one), its meaning where it ran, then
 * the layer machine. */
static void kernel_on(ts_result *res, const ts_event *ev, uint32_t row, const ts_kclass *cls,
		      size_t node)
{
	ts_kref ref;
	if (node != SIZE_MAX)
		ts_attrib_captured(res->attrib, ev, row, cls, ts_replay_map(res->replay), node, &ref);
	else
		ts_attrib_kernel(res->attrib, ev, row, cls, &ref);
	/* the kernel's meaning where it ran: its op, its place */
	unsigned slot = 0;
	if (res->ctx && row != TS_INTERN_NONE && (ev->has & TS_HAS_DUR)) {
		uint32_t op = ref.op == TS_INTERN_NONE ? TS_INTERN_NONE : ref.op & ~TS_KREF_FIRST;
		size_t oplen = 0;
		const char *opname = op == TS_INTERN_NONE ? NULL
				   : ts_attrib_op_name(res->attrib, op, &oplen);
		/* the op's call site: its most frequent Python frame */
		const char *cs[TS_ATTRIB_CALLSITES] = { NULL };
		size_t cslen[TS_ATTRIB_CALLSITES] = { 0 };
		uint64_t csw[TS_ATTRIB_CALLSITES];
		if (op == TS_INTERN_NONE || !ts_attrib_op_callsites(res->attrib, op, cs, cslen, csw))
			cs[0] = NULL;
		int ci = ts_ctx_kernel(res->ctx, row, cls, ev->name, ev->name_len,
				       op, opname, oplen, cs[0], cslen[0]);
		const ts_kclass *in = ci < 0 ? NULL
			: ts_agg_context(res->agg, row,
					 ts_patterns_context(res->patterns, (size_t)ci)->category,
					 ev->dur_ns, &slot);
		if (in) {
			ts_attrib_recategorize(res->attrib, &ref, cls->category, in->category,
					       ev->dur_ns);
			cls = in;
		}
	}
	if (cls && cls->type == TS_TYPE_COMMUNICATION && res->patterns && cls->category >= 0)
		ts_comm_kernel(res->comm, ev, ts_patterns_category(res->patterns, (size_t)cls->category));
	ts_layers_kernel(res->layers, ev, row, cls, &ref, slot);
	ts_modules_kernel(res, &(ts_kernel_rec){ ev, row, cls ? cls : &ts_other_class, &ref });
}

/* Kernels the replay matcher lets go, in order. */
static void drain(ts_result *res, bool flush)
{
	ts_event ev;
	uint32_t row;
	size_t node;
	while (ts_replay_next(res->replay, flush, &ev, &row, &node))
		kernel_on(res, &ev, row, ts_agg_class(res->agg, row), node);
}

/* The stages after the parser: aggregates (classifying each new kernel
 * name), then the layer machine with the kernel's class. */
/* A kernel: replayed from a graph capture (held until its replay is
 * decided), else analysed now. */
static void on_kernel(ts_result *res, const ts_event *ev)
{
	uint32_t row = res->agg->last_row;
	if (res->replay &&
	    ts_replay_kernel(res->replay, ev, row, ts_attrib_link(res->attrib, ev))) {
		drain(res, false);
		return;
	}
	if (res->replay)
		drain(res, true);   /* out of memory: keep the order */
	kernel_on(res, ev, row, res->agg->last_class, SIZE_MAX);
}

/* A runtime call: attribution, the API summary, the layer machine's CPU
 * side, and a graph launch's replay. */
static ts_status on_runtime(ts_result *res, const ts_event *ev)
{
	ts_attrib_runtime(res->attrib, ev);
	if (ts_api_call(res->api, ev) == TS_ERR_NOMEM)
		return TS_ERR_NOMEM;
	ts_layers_cpu_event(res->layers, ev);
	if (res->replay && (ev->has & TS_HAS_CORRELATION)) {
		ts_link k = ts_attrib_corr_link(res->attrib, ev->correlation);
		if (k != TS_LINK_WAIT) {
			bool graph = k == TS_LINK_GRAPH;
			ts_replay_launch(res->replay, ev->correlation, graph,
					 graph && (ev->has & TS_HAS_TS)
					 ? ts_layers_step_size(res->layers, ev->ts_ns) : -1);
			drain(res, false);
		}
	}
	return TS_OK;
}

static ts_status analyse_event(void *ud, const ts_event *ev)
{
	ts_result *res = ud;
	ts_status st = ts_agg_event(res->agg, ev);
	if (st != TS_OK || !res->layers || !res->attrib)
		return st;
	ts_modules_event(res, ev);
	switch (ev->cat) {
	case TS_CAT_KERNEL:
		ts_api_gpu_op(res->api, ev);
		if (res->agg->last_class)
			on_kernel(res, ev);
		break;
	case TS_CAT_GPU_MEMCPY:
	case TS_CAT_GPU_MEMSET:
		ts_api_gpu_op(res->api, ev);
		ts_attrib_memop(res->attrib, ev);
		ts_layers_copy(res->layers, ev, res->agg->last_mem_class);
		break;
	case TS_CAT_CPU_OP:
		ts_attends at = ts_attrib_cpu_op(res->attrib, ev);
		if (at != TS_ATTENDS_NONE)
			ts_layers_attends(res->layers, at == TS_ATTENDS_BIDIR);
		ts_layers_cpu_event(res->layers, ev);
		batching_of(res, ev);
		break;
	case TS_CAT_PYTHON_FUNCTION:
		ts_attrib_python(res->attrib, ev);
		ts_layers_python(res->layers, ev);
		if (!res->framework || !ts_layers_generation(res->layers))
			framework_of(res, ev);
		break;
	case TS_CAT_CUDA_RUNTIME:
	case TS_CAT_CUDA_DRIVER:
		return on_runtime(res, ev);
	case TS_CAT_USER_ANNOTATION:
	case TS_CAT_GPU_USER_ANNOTATION:
		ts_layers_annotation(res->layers, ev);
		if (ev->cat == TS_CAT_USER_ANNOTATION)
			ts_attrib_annotation(res->attrib, ev);
		if (res->record)
			ts_capmap_annotation(res->record, ev);
		if (!res->framework)
			framework_of(res, ev);
		break;
	default:
		break;
	}
	return TS_OK;
}

/* Each event as the parser gives it: kept for sorting in a sorted run;
 * else watched, and analysed unless the watch stops the read so that it
 * can begin again sorted (order.h). */
static ts_status on_event(void *ud, const ts_event *ev)
{
	ts_result *res = ud;
	if (res->only && !ts_api_picks(res->only, ev))
		return TS_OK;         /* another process's */
	if (res->sorter)
		return ts_sorter_add(res->sorter, ev);
	if (!res->order_out && ts_order_watch_event(&res->order, ev)) {
		res->order_out = true;
		if (res->order_resort)
			return TS_ERR_FULL;   /* stops the parse: read it again, sorted */
	}
	return analyse_event(res, ev);
}

static void on_staged(void *ctx, int stage, const ts_kref *ref, int64_t dur)
{
	ts_attrib_staged(ctx, stage, ref, dur);
}

_Static_assert(TS_ATTRIB_STAGES == TS_PSTAGE_COUNT, "attribution stage views");

/* What stopped the read: the report is of what came before it. */
static void stopped(ts_result *res, const ts_error *e)
{
	res->err = *e;
	res->partial = true;
}

static void set_error(ts_result *res, ts_status st, const char *msg,
		      uint64_t byte, bool compressed)
{
	ts_error e = { .byte = byte, .compressed = compressed };
	ts_error_set(&e, st, "%s", msg);
	stopped(res, &e);
}

/* The reader failed with rs, after every byte it gave was parsed. */
static void read_failed(ts_reader *r, ts_status rs, ts_result *res)
{
	char msg[400];
	if (res->gzip)
		snprintf(msg, sizeof msg, "%s (JSON read so far: %llu bytes)", ts_reader_error(r),
			 (unsigned long long)ts_reader_out_bytes(r));
	else
		snprintf(msg, sizeof msg, "%s", ts_reader_error(r));
	set_error(res, rs, msg, ts_reader_in_bytes(r), res->gzip);
}

static void pump_chunks(ts_reader *r, ts_parser *p, char *buf,
			const ts_pipeline_opts *o, ts_result *res)
{
	for (;;) {
		size_t n;
		const char *bytes;
		ts_status rs = ts_reader_view(r, buf, CHUNK, &bytes, &n);
		if (n > 0) {
			ts_status ps = ts_parser_feed(p, bytes, n);
			if (ps != TS_OK) {
				stopped(res, ts_parser_error(p));
				return;
			}
		}
		if (o->progress)
			ts_progress_update(o->progress, ts_reader_in_bytes(r),
					   ts_reader_out_bytes(r));
		if (rs != TS_OK) {
			read_failed(r, rs, res);
			return;
		}
		if (n == 0)
			break;
	}
	ts_status ps = ts_parser_finish(p);
	if (ps != TS_OK)
		stopped(res, ts_parser_error(p));
}

static void progress_cb(void *ud, uint64_t in, uint64_t out)
{
	ts_progress_update(ud, in, out);
}

/* With threads: the parse on several cores (pparse.h), every result as
 * one thread's. False when no thread could be had. */
static bool pump_threads(ts_reader *r, ts_parser *p, const ts_pipeline_opts *o, ts_result *res)
{
	ts_pparse_opts po = { .workers = o->threads, .piece = o->piece_size, .fn = on_event, .ud = res,
			      .progress = o->progress ? progress_cb : NULL,
			      .progress_ud = o->progress };
	ts_pparse_out out;
	ts_status st = ts_pparse_run(r, p, &po, &out);
	if (out.unavailable)
		return false;
	res->parse_threads = out.threads;
	res->pieces = out.pieces;
	res->pieces_in_order = out.in_order;
	if (out.shrank) {
		set_error(res, TS_ERR_TRUNCATED, "trace cut short: the file shrank while it was read",
			  ts_reader_size_now(r), false);
	} else if (out.read_failed) {
		read_failed(r, st, res);
	} else if (st != TS_OK) {
		stopped(res, ts_parser_error(p));
	}
	return true;
}

/* A mapped file is parsed under a guard: one cut shorter by someone else
 * while it is read ends the parse as a cut trace, where a read would have
 * seen its end, instead of killing the run. */
static void pump_any(ts_reader *r, ts_parser *p, char *buf,
		     const ts_pipeline_opts *o, ts_result *res)
{
	sigjmp_buf jb;
	if (o->threads > 1 && pump_threads(r, p, o, res))
		return;
	if (!ts_reader_mapped(r)) {
		pump_chunks(r, p, buf, o, res);
		return;
	}
	if (sigsetjmp(jb, 1)) {
		ts_reader_unguard();
		set_error(res, TS_ERR_TRUNCATED, "trace cut short: the file shrank while it was read",
			  ts_reader_size_now(r), false);
		return;
	}
	ts_reader_guard(&jb);
	pump_chunks(r, p, buf, o, res);
	ts_reader_unguard();
}

/* The parse, and then: a parse of a file that stopped, when the file is
 * shorter now than when it was opened, stopped because the file was cut
 * while it was read, whatever it met first (a read's early end, the zeros
 * of a mapping's last page past the new end read as a lexical error):
 * said as such, at its new end. (A parse that read it whole stands.) */
static void pump(ts_reader *r, ts_parser *p, char *buf,
		 const ts_pipeline_opts *o, ts_result *res)
{
	pump_any(r, p, buf, o, res);
	int64_t now = res->partial ? ts_reader_size_now(r) : -1;
	if (now >= 0 && res->input_size >= 0 && now < res->input_size)
		set_error(res, TS_ERR_TRUNCATED, "trace cut short: the file shrank while it was read",
			  (uint64_t)now, false);
}

/* The analysis objects of a result; false when memory ran out. */
static bool make_objects(ts_result *res, const ts_pipeline_opts *o, bool run)
{
	res->agg = ts_agg_new(&o->limits, o->patterns);
	res->patterns = o->patterns;
	res->attrib = ts_attrib_new(o->patterns, o->join_mem);
	if (res->attrib)
		ts_attrib_set_meta(res->attrib, &res->meta);
	res->ctx = ts_ctx_new(o->patterns);
	res->comm = ts_comm_new();
	res->api = ts_api_new();
	/* kernels reach the attribution's stage views through the layer
	 * machine, which knows their stage when their pass ends */
	ts_layers_opts lo = o->layers;
	lo.staged = on_staged;
	lo.staged_ctx = res->attrib;
	res->layers = ts_layers_new(o->patterns, &lo);
	if (run && o->captures)
		res->replay = ts_replay_new(o->captures);
	res->record = run ? o->record : NULL;
	if (res->attrib && res->record)
		ts_attrib_record(res->attrib, res->record);
	return res->agg && res->layers && res->attrib && res->ctx && res->comm && res->api &&
	       (!run || !o->captures || res->replay) && ts_modules_make(res);
}

void ts_result_settle(ts_result *res, const ts_pipeline_opts *o)
{
	framework_decide(res);
	/* one process of a merged file: the file's metadata may be another
	 * process's, so its own calls and kernels speak first */
	static const ts_meta none;
	res->platform = ts_platform_decide(res->only ? &none : &res->meta, res->agg, &res->platform_source);
	if (res->only && res->platform == TS_PLATFORM_UNKNOWN)
		res->platform = ts_platform_decide(&res->meta, res->agg, &res->platform_source);
	/* The caller has checked a forced family name against the tables. */
	ts_model_choose(o->patterns, res->agg, o->model, &res->model);
	ts_model_check(&res->model, o->patterns, res->agg, res->layers);
	ts_model_attention(&res->model, res->attrib,
			   (res->meta.has & TS_META_HAS_WORLD) ? res->meta.world_size : 1);
	res->gpu = NULL;
	res->gpu_how = NULL;
	if (o->patterns && o->gpu) {
		res->gpu = ts_gpu_named(o->patterns, o->gpu);
		res->gpu_how = "--device";
	} else if (o->patterns) {
		const ts_devprop *d = ts_result_devprop(res);
		if (d)
			res->gpu = ts_gpu_find(o->patterns, d->name, (d->has & TS_DEV_HAS_SMS) ? d->sm_count : 0,
					       (d->has & TS_DEV_HAS_MEM) ? d->memory_bytes : 0, res->platform,
					       &res->gpu_how);
	}
}

ts_status ts_result_empty(const ts_pipeline_opts *o, const char *label, ts_result *res)
{
	memset(res, 0, sizeof *res);
	res->path = label;
	res->input_size = -1;
	res->platform_source = "none";
	res->opened = true;
	if (!make_objects(res, o, false)) {
		res->err.status = TS_ERR_NOMEM;
		snprintf(res->err.msg, sizeof res->err.msg, "out of memory");
		return res->err.status;
	}
	return TS_OK;
}

const char *ts_framework_named(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof framework_names / sizeof *framework_names; i++)
		if (strlen(framework_names[i]) == n && memcmp(framework_names[i], s, n) == 0)
			return framework_names[i];
	return NULL;
}

size_t ts_framework_count(void)
{
	return sizeof framework_names / sizeof *framework_names;
}

/* Memory the sorter keeps events in before it writes runs to a file. */
#define SORT_MEM ((size_t)32 << 20)

/* Whether the input can be read a second time, sorted: a regular file
 * (not a pipe), not a capture trace being recorded. */
static bool can_sort(const char *path, const ts_pipeline_opts *o)
{
	struct stat st;
	return !o->record && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A sorted run's events, in order, to the analysis. False where the
 * sorter failed (its temporary file could not be written or read): the
 * caller reads the input again as it came, saying why. */
static bool emit_sorted(ts_result *res)
{
	ts_sorter *so = res->sorter;
	res->sorter = NULL;       /* the analysis reads them now */
	ts_status st = *ts_sorter_error(so) ? TS_ERR_IO : ts_sorter_emit(so, analyse_event, res);
	if (*ts_sorter_error(so)) {
		snprintf(res->sort_failed, sizeof res->sort_failed, "%s", ts_sorter_error(so));
		ts_sorter_free(so);
		return false;
	}
	if (st != TS_OK && res->err.status == TS_OK)
		set_error(res, st, ts_strerror(st), 0, false);
	res->order_sorted = true;
	res->sorted_events = ts_sorter_events(so);
	res->sort_runs = ts_sorter_runs(so);
	res->sort_file_bytes = ts_sorter_file_bytes(so);
	ts_sorter_free(so);
	return true;
}

/* How a read takes the events: watched (and read again sorted where
 * they are out of order), sorted first, or as they came. */
enum { READ_WATCH, READ_SORTED, READ_AS_WRITTEN };

static ts_status run_once(const char *path, const ts_pipeline_opts *o, ts_result *res, int how)
{
	bool sorted = how == READ_SORTED;
	memset(res, 0, sizeof *res);
	res->path = o->label ? o->label : path;
	res->only = o->only;
	res->input_size = -1;
	res->platform_source = "none";
	double t0 = now();

	ts_status st;
	ts_reader *r = ts_reader_open(path, o->read_size, !o->no_mmap, &st);
	if (!r) {
		res->err.status = st;
		res->open_errno = errno;
		snprintf(res->err.msg, sizeof res->err.msg, "cannot open: %s",
			 st == TS_ERR_IO ? strerror(errno) : ts_strerror(st));
		return st;
	}
	res->opened = true;
	res->gzip = ts_reader_is_gzip(r);
	res->input_size = ts_reader_size(r);
	if (o->progress)
		ts_progress_set_total(o->progress, res->input_size);

	bool made = make_objects(res, o, true);
	ts_parser *p = made ? ts_parser_new(on_event, res, &res->meta) : NULL;
	char *buf = malloc(CHUNK);
	if (!made || !p || !buf) {
		free(buf);
		ts_parser_free(p);
		ts_reader_free(r);
		res->err.status = TS_ERR_NOMEM;
		snprintf(res->err.msg, sizeof res->err.msg, "out of memory");
		return res->err.status;
	}

	if (o->record)
		ts_capmap_begin_file(o->record, path);
	res->order_resort = how == READ_WATCH && can_sort(path, o);
	if (sorted && !(res->sorter = ts_sorter_new(o->sort_mem ? o->sort_mem : SORT_MEM, NULL)))
		set_error(res, TS_ERR_NOMEM, "out of memory", 0, false);
	else
		pump(r, p, buf, o, res);
	if (o->progress)
		ts_progress_clear(o->progress);
	if (!sorted && !res->order_out && res->err.status == TS_OK && ts_order_watch_end(&res->order))
		res->order_out = true;
	if ((res->order_out && res->order_resort) || (sorted && res->sorter && !emit_sorted(res))) {
		free(buf);
		ts_parser_free(p);
		ts_reader_free(r);
		return TS_OK;         /* the caller reads it again */
	}

	if (res->replay)
		drain(res, true);
	ts_attrib_finish(res->attrib);
	if (o->record && ts_capmap_end_file(o->record, ts_attrib_op_info, res->attrib) != TS_OK &&
	    res->err.status == TS_OK)
		set_error(res, TS_ERR_NOMEM, "out of memory", 0, false);
	ts_layers_finish(res->layers, ts_intern_count(res->agg->names));
	res->input_bytes = ts_reader_in_bytes(r);
	res->json_bytes = ts_reader_out_bytes(r);
	/* a parse that stopped read the JSON up to its error, whatever was
	 * read ahead of it (which depends on the read size and the threads) */
	if (res->err.status != TS_OK && !res->err.compressed && res->err.line == 0 &&
	    res->err.byte > 0 && res->err.byte < res->json_bytes) {
		res->json_bytes = res->err.byte;
		if (!res->gzip)
			res->input_bytes = res->json_bytes;
	}
	res->pstats = *ts_parser_get_stats(p);
	ts_result_settle(res, o);
	ts_modules_finish(res);
	res->seconds = now() - t0;
	free(buf);
	ts_parser_free(p);
	ts_reader_free(r);
	return res->err.status;
}


ts_status ts_pipeline_run(const char *path, const ts_pipeline_opts *o, ts_result *res)
{
	ts_status st = run_once(path, o, res, READ_WATCH);
	if (!(res->order_out && res->order_resort))
		return st;
	ts_order_watch seen = res->order;
	double first = res->seconds;
	ts_result_free(res);
	st = run_once(path, o, res, READ_SORTED);
	if (*res->sort_failed) {
		/* no room to sort: as it came, the reason said */
		char why[sizeof res->sort_failed];
		memcpy(why, res->sort_failed, sizeof why);
		first += res->seconds;
		ts_result_free(res);
		st = run_once(path, o, res, READ_AS_WRITTEN);
		memcpy(res->sort_failed, why, sizeof why);
	}
	res->order = seen;
	res->order_out = true;
	res->seconds += first;
	return st;
}
