/*
 * partial.c - the saved-partial file: header, sections, checksum (see
 * partial.h and docs/partial-format.md). Each section's fields are written
 * and merged by its own module (agg.c, attrib.c, layers.c, ranks.c); the
 * trace facts are here.
 */
#include "partial.h"

#include "input/base/grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "input/base/satmath.h"
#include "analysis/views/module.h"

static const unsigned char magic[8] = { 0x89, 'T', 'S', 'P', 'A', 'R', 'T', '\n' };
#define ENDIAN_MARK 0x01020304u
#define HEADER_BYTES (8 + 4 + 4 + 8)

enum { SEC_META = 1, SEC_AGG, SEC_ATTRIB, SEC_LAYERS, SEC_RANKS, SEC_CAPTURES, SEC_REPLAYS,
       SEC_COMM, SEC_API, SEC_MODULES, SEC_COUNT };
static const char *const sec_names[SEC_COUNT] = {
	[SEC_META] = "meta", [SEC_AGG] = "aggregates", [SEC_ATTRIB] = "attribution",
	[SEC_LAYERS] = "layers", [SEC_RANKS] = "ranks", [SEC_CAPTURES] = "captures",
	[SEC_REPLAYS] = "replays", [SEC_COMM] = "collectives", [SEC_API] = "runtime calls",
	[SEC_MODULES] = "modules",
};

/* ------------------------------------------------------------ writing */

/* Start a section: its tag and a length patched by end_section. */
static size_t begin_section(ts_wbuf *w, uint32_t tag)
{
	ts_w_u32(w, tag);
	ts_w_u64(w, 0);
	return w->n;
}

static void end_section(ts_wbuf *w, size_t start)
{
	if (w->nomem)
		return;
	uint64_t len = w->n - start;
	for (int i = 0; i < 8; i++)
		w->p[start - 8 + (size_t)i] = (unsigned char)(len >> (8 * i));
}

static void meta_save(const ts_result *res, ts_wbuf *w)
{
	ts_w_str(w, res->path ? res->path : "", res->path ? strlen(res->path) : 0);
	ts_w_u32(w, (uint32_t)res->err.status);
	ts_w_u8(w, res->partial);
	ts_w_str(w, res->err.msg, strlen(res->err.msg));
	ts_w_u64(w, res->err.byte);
	ts_w_u8(w, res->err.compressed);
	ts_w_u8(w, res->gzip);
	ts_w_u64(w, res->input_bytes);
	ts_w_u64(w, res->json_bytes);
	ts_w_i64(w, res->input_size);
	ts_w_f64(w, res->seconds);
	const ts_meta *m = &res->meta;
	ts_w_u64(w, (uint64_t)m->ndev);
	for (int i = 0; i < m->ndev; i++) {
		const ts_devprop *d = &m->dev[i];
		ts_w_i64(w, d->id);
		ts_w_str(w, d->name, strnlen(d->name, sizeof d->name));
		ts_w_i64(w, d->sm_count);
		ts_w_i64(w, d->memory_bytes);
		ts_w_i64(w, d->warp_size);
		ts_w_u32(w, d->has);
	}
	ts_w_u64(w, (uint64_t)m->devprops_dropped);
	ts_w_u64(w, (uint64_t)m->nvidia_keys);
	ts_w_u64(w, (uint64_t)m->amd_keys);
	ts_w_i64(w, m->world_size);
	ts_w_i64(w, m->rank);
	ts_w_i64(w, m->base_time_ns);
	ts_w_u32(w, m->has);
	ts_w_u8(w, m->saw_trace_events != 0);
	const ts_parser_stats *p = &res->pstats;
	ts_w_u64(w, p->events);
	ts_w_u64(w, p->bad_items);
	ts_w_u64(w, p->bad_numbers);
	ts_w_u64(w, p->bad_times);
	ts_w_u64(w, p->bad_time_byte);
	ts_w_u64(w, p->long_names);
	ts_w_u64(w, p->raw_ctrl);
	ts_w_u64(w, p->raw_ctrl_byte);
	ts_w_str(w, res->framework ? res->framework : "", res->framework ? strlen(res->framework) : 0);
	size_t nf = ts_framework_count();
	ts_w_u64(w, nf);
	for (size_t i = 0; i < nf; i++)
		ts_w_u32(w, res->framework_hits[i]);
}

ts_status ts_partial_save(const ts_result *res, const ts_rank_summary *ranks, size_t nranks,
			  ts_wbuf *w)
{
	ts_w_bytes(w, magic, sizeof magic);
	ts_w_u32(w, TS_PARTIAL_VERSION);
	ts_w_u32(w, ENDIAN_MARK);
	ts_w_u64(w, 0);                 /* payload length, patched below */
	size_t s = begin_section(w, SEC_META);
	meta_save(res, w);
	end_section(w, s);
	s = begin_section(w, SEC_AGG);
	ts_agg_save(res->agg, w);
	end_section(w, s);
	s = begin_section(w, SEC_ATTRIB);
	ts_attrib_save(res->attrib, w);
	end_section(w, s);
	s = begin_section(w, SEC_LAYERS);
	ts_layers_save(res->layers, w);
	end_section(w, s);
	s = begin_section(w, SEC_RANKS);
	ts_w_u64(w, nranks);
	for (size_t i = 0; i < nranks; i++)
		ts_rank_summary_save(&ranks[i], w);
	end_section(w, s);
	/* --capture: the capture map (so a later run can take it again) and
	 * what the replays took from it */
	const ts_capmap *cm = res->replay ? ts_replay_map(res->replay) : NULL;
	s = begin_section(w, SEC_CAPTURES);
	ts_w_u8(w, cm != NULL);
	if (cm)
		ts_capmap_save(cm, res->patterns, w);
	end_section(w, s);
	s = begin_section(w, SEC_REPLAYS);
	ts_w_u8(w, cm != NULL);
	if (cm)
		ts_replay_save(res->replay, w);
	end_section(w, s);
	s = begin_section(w, SEC_COMM);
	if (res->comm) {
		ts_comm_save(res->comm, w);
	} else {
		ts_comm *none = ts_comm_new();
		if (none)
			ts_comm_save(none, w);
		else
			w->nomem = true;
		ts_comm_free(none);
	}
	end_section(w, s);
	s = begin_section(w, SEC_API);
	if (res->api) {
		ts_api_save(res->api, w);
	} else {
		ts_w_u64(w, 0);   /* no rows, no synchronizing call, none unkept */
		ts_w_u64(w, 0);
		ts_w_u64(w, 0);
	}
	end_section(w, s);
	s = begin_section(w, SEC_MODULES);
	ts_modules_save(res, w);
	end_section(w, s);
	if (w->nomem)
		return TS_ERR_NOMEM;
	uint64_t payload = w->n - HEADER_BYTES;
	for (int i = 0; i < 8; i++)
		w->p[16 + i] = (unsigned char)(payload >> (8 * i));
	ts_w_u32(w, (uint32_t)crc32(0, w->p, (uInt)w->n));
	return w->nomem ? TS_ERR_NOMEM : TS_OK;
}

/* ------------------------------------------------------------ reading */

static ts_status fail(ts_error *err, uint64_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static ts_status fail(ts_error *err, uint64_t at, const char *fmt, ...)
{
	char m[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	ts_error_set(err, TS_ERR_PARTIAL, "bad saved partial: %s", m);
	err->byte = at;
	return TS_ERR_PARTIAL;
}

static void meta_merge(ts_result *res, ts_rbuf *r)
{
	size_t n;
	(void)ts_r_str(r, &n);      /* the trace's path: the rank summaries keep it */
	uint32_t st = ts_r_u32(r);
	bool partial = ts_r_u8(r);
	const char *e = ts_r_str(r, &n);
	uint64_t eb = ts_r_u64(r);
	bool ec = ts_r_u8(r);
	res->gzip |= ts_r_u8(r);
	res->input_bytes = ts_sat_addu(res->input_bytes, ts_r_u64(r));
	res->json_bytes = ts_sat_addu(res->json_bytes, ts_r_u64(r));
	int64_t size = ts_r_i64(r);
	res->input_size = res->input_size < 0 || size < 0 ? -1 : res->input_size + size;
	res->seconds += ts_r_f64(r);
	if (r->err)
		return;
	if (st > TS_ERR_PARTIAL) {
		ts_r_fail(r, "a status out of range");
		return;
	}
	if (partial && st == TS_OK) {   /* a report is partial for what stopped its read */
		ts_r_fail(r, "a partial report whose status says nothing stopped its read");
		return;
	}
	res->partial |= partial;
	if (st != TS_OK && res->err.status == TS_OK) {
		res->err.status = (ts_status)st;
		size_t k = n < sizeof res->err.msg - 1 ? n : sizeof res->err.msg - 1;
		memcpy(res->err.msg, e, k);
		res->err.msg[k] = '\0';
		res->err.byte = eb;
		res->err.compressed = ec;
	}
	ts_meta *m = &res->meta;
	uint64_t ndev = ts_r_count(r, 8 + 4 + 8 * 3 + 4);
	for (uint64_t i = 0; i < ndev && !r->err; i++) {
		ts_devprop d = { 0 };
		d.id = ts_r_i64(r);
		const char *name = ts_r_str(r, &n);
		size_t k = n < sizeof d.name - 1 ? n : sizeof d.name - 1;
		memcpy(d.name, name, k);
		d.sm_count = ts_r_i64(r);
		d.memory_bytes = ts_r_i64(r);
		d.warp_size = ts_r_i64(r);
		d.has = ts_r_u32(r);
		bool have = false;
		for (int j = 0; j < m->ndev; j++)
			have |= m->dev[j].id == d.id && strcmp(m->dev[j].name, d.name) == 0;
		if (have)
			continue;
		if (m->ndev < TS_MAX_DEVPROPS)
			m->dev[m->ndev++] = d;
		else
			m->devprops_dropped++;
	}
	ts_r_add_int(r, &m->devprops_dropped);
	ts_r_add_int(r, &m->nvidia_keys);
	ts_r_add_int(r, &m->amd_keys);
	int64_t world = ts_r_i64(r), rank = ts_r_i64(r), base = ts_r_i64(r);
	uint32_t has = ts_r_u32(r);
	if ((has & TS_META_HAS_WORLD) && !(m->has & TS_META_HAS_WORLD))
		m->world_size = world;
	/* parts of other ranks: the merge is no one rank */
	bool other_rank = (has & TS_META_HAS_RANK) && (m->has & TS_META_HAS_RANK) && rank != m->rank;
	if ((has & TS_META_HAS_RANK) && !(m->has & TS_META_HAS_RANK) && !m->saw_trace_events)
		m->rank = rank;
	if ((has & TS_META_HAS_BASE_TIME) &&
	    (!(m->has & TS_META_HAS_BASE_TIME) || base < m->base_time_ns))
		m->base_time_ns = base;
	bool first = !m->saw_trace_events;
	uint32_t all = TS_META_HAS_WORLD | TS_META_HAS_RANK | TS_META_HAS_BASE_TIME;
	m->has |= has & (first ? all : all & ~(uint32_t)TS_META_HAS_RANK);
	if (other_rank)
		m->has &= ~(uint32_t)TS_META_HAS_RANK;
	m->saw_trace_events |= ts_r_u8(r);
	ts_parser_stats *p = &res->pstats;
	p->events = ts_sat_addu(p->events, ts_r_u64(r));
	p->bad_items = ts_sat_addu(p->bad_items, ts_r_u64(r));
	p->bad_numbers = ts_sat_addu(p->bad_numbers, ts_r_u64(r));
	uint64_t bt = ts_r_u64(r), btb = ts_r_u64(r);
	if (bt && !p->bad_times)
		p->bad_time_byte = btb;
	p->bad_times = ts_sat_addu(p->bad_times, bt);
	p->long_names = ts_sat_addu(p->long_names, ts_r_u64(r));
	uint64_t rc = ts_r_u64(r), rcb = ts_r_u64(r);
	if (rc && !p->raw_ctrl)
		p->raw_ctrl_byte = rcb;
	p->raw_ctrl = ts_sat_addu(p->raw_ctrl, rc);
	const char *fw = ts_r_str(r, &n);
	const char *known = ts_framework_named(fw, n);
	if (known && !res->framework)
		res->framework = known;
	uint64_t nf = ts_r_count(r, 4);
	for (uint64_t i = 0; i < nf; i++) {
		uint32_t h = ts_r_u32(r);
		if (i < ts_framework_count() && i < sizeof res->framework_hits / sizeof *res->framework_hits)
			res->framework_hits[i] += h;
	}
}

static ts_status ranks_load(ts_partial_ranks *ranks, ts_rbuf *r)
{
	uint64_t n = ts_r_count(r, 64);
	for (uint64_t i = 0; i < n && !r->err; i++) {
		if (!ts_grow((void **)&ranks->r, &ranks->cap, ranks->n + 1, sizeof *ranks->r, 8,
			     SIZE_MAX, false))
			return TS_ERR_NOMEM;
		ts_rank_summary *s = &ranks->r[ranks->n];
		ts_status st = ts_rank_summary_load(s, r);
		if (st != TS_OK) {
			ts_rank_summary_free(s);
			return st;
		}
		s->order = (int64_t)ranks->n;
		ranks->n++;
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

/* The captures section into res: its map (made with the replay table on
 * the first partial that has one). *present: the partial's run had
 * --capture. */
static ts_status captures_merge(ts_result *res, ts_rbuf *r, long **gmap, size_t *ngmap,
				bool *present)
{
	uint8_t has = ts_r_u8(r);
	*present = has == 1;
	if (r->err || has > 1) {
		ts_r_fail(r, "a bad captures flag");
		return TS_ERR_PARTIAL;
	}
	if (!has)
		return TS_OK;
	if (!res->merged_captures) {
		if (res->replay) {
			ts_r_fail(r, "captures merged into a run's own");
			return TS_ERR_PARTIAL;
		}
		res->merged_captures = ts_capmap_new();
		res->replay = res->merged_captures ? ts_replay_new(res->merged_captures) : NULL;
		if (!res->replay)
			return TS_ERR_NOMEM;
	}
	return ts_capmap_merge(res->merged_captures, res->patterns, r, gmap, ngmap);
}

static ts_status replays_merge(ts_result *res, ts_rbuf *r, const long *gmap, size_t ngmap,
			       bool present)
{
	uint8_t has = ts_r_u8(r);
	if (!r->err && has != present)
		ts_r_fail(r, "the replays do not go with the captures section");
	if (r->err)
		return TS_ERR_PARTIAL;
	return has ? ts_replay_merge(res->replay, r, gmap, ngmap) : TS_OK;
}

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* What a section reader gets: the section's tag and bytes. */
typedef ts_status (*section_fn)(void *ctx, uint32_t tag, ts_rbuf *r);

/* The header's checks, from its first bytes (p, n of them: at least 16
 * to judge the version) and the file's size: the magic, the byte order,
 * the version, then the length against size. TS_OK with the whole file's
 * bytes in *total. */
static ts_status header_check(const unsigned char *p, size_t n, uint64_t size, uint64_t *total,
			      ts_error *err)
{
	if (n < sizeof magic || memcmp(p, magic, sizeof magic) != 0)
		return fail(err, 0, "%s", "not a tracestream partial (no magic number)");
	if (n < 16)
		return fail(err, n, "%s", "cut short: the header is not whole");
	uint32_t version = (uint32_t)le(p + 8, 4), mark = (uint32_t)le(p + 12, 4);
	if (mark != ENDIAN_MARK)
		return fail(err, 12, "%s",
			    "written with another byte order (or corrupt): bad endianness mark");
	if (version != TS_PARTIAL_VERSION) {
		char v[80];
		snprintf(v, sizeof v, "version %u; this build reads version %d", version,
			 TS_PARTIAL_VERSION);
		return fail(err, 8, "%s", v);
	}
	if (n < HEADER_BYTES || size < HEADER_BYTES + 4)
		return fail(err, n, "%s", "cut short: the header is not whole");
	uint64_t payload = le(p + 16, 8);
	if (payload != size - HEADER_BYTES - 4) {
		char v[160];
		snprintf(v, sizeof v, "cut short or extended: the header says a payload of %llu bytes, "
			 "the file has %llu bytes (%llu of payload)", (unsigned long long)payload,
			 (unsigned long long)size, (unsigned long long)(size - HEADER_BYTES - 4));
		return fail(err, size, "%s", v);
	}
	*total = size;
	return TS_OK;
}

/*
 * Check a partial's header, length and checksum, then hand each section,
 * in order, to fn; stop at the first problem, with what and where in err
 * and *err_at.
 */
static ts_status walk(const unsigned char *p, size_t n, unsigned flags, section_fn fn, void *ctx,
		      ts_error *err)
{
	uint64_t total;
	ts_status hs = header_check(p, n, n, &total, err);
	if (hs != TS_OK)
		return hs;
	uint32_t want = (uint32_t)le(p + n - 4, 4);
	if (!(flags & TS_PARTIAL_NO_CHECKSUM) && (uint32_t)crc32(0, p, (uInt)(n - 4)) != want)
		return fail(err, n - 4, "%s", "checksum mismatch: the file is corrupt");
	/* the sections, each once, in order */
	size_t at = HEADER_BYTES, end = n - 4;
	ts_status st = TS_OK;
	for (uint32_t tag = SEC_META; tag < SEC_COUNT && st == TS_OK; tag++) {
		if (end - at < 12) {
			st = fail(err, at, "the %s section is missing", sec_names[tag]);
			break;
		}
		uint32_t got = (uint32_t)le(p + at, 4);
		uint64_t len = le(p + at + 4, 8);
		if (got != tag || len > end - at - 12) {
			st = fail(err, at, "the %s section is missing or damaged",
				  sec_names[tag]);
			break;
		}
		ts_rbuf r = { .p = p + at + 12, .n = (size_t)len, .base = at + 12 };
		st = fn(ctx, tag, &r);
		if (st == TS_OK && r.at != r.n)
			ts_r_fail(&r, "bytes left over at its end");
		if (r.err) {
			char what[160];
			snprintf(what, sizeof what, "the %s section: %s", sec_names[tag], r.err);
			st = fail(err, r.err_at, "%s", what);
		} else if (st == TS_ERR_NOMEM) {
			ts_error_set(err, TS_ERR_NOMEM, "out of memory");
			err->byte = at;
		}
		at += 12 + (size_t)len;
	}
	if (st == TS_OK && at != end)
		st = fail(err, at, "%s", "bytes after the last section");
	return st;
}

/* Merging a whole partial: the maps one section makes for the next. */
typedef struct {
	ts_result *res;
	ts_partial_ranks *ranks;
	uint32_t *kmap, nk, *opmap, nop, *wlmap, nwl;
	uint8_t *kslots;
	long *gmap;
	size_t ngmap;
	bool captures;
} merging;

static ts_status merge_section(void *ctx, uint32_t tag, ts_rbuf *r)
{
	merging *g = ctx;
	ts_result *res = g->res;
	switch (tag) {
	case SEC_META:
		meta_merge(res, r);
		return r->err ? TS_ERR_PARTIAL : TS_OK;
	case SEC_AGG:
		return ts_agg_load(res->agg, r, &g->kmap, &g->kslots, &g->nk);
	case SEC_ATTRIB:
		return ts_attrib_load(res->attrib, r, g->kmap, g->nk, &g->opmap, &g->nop, &g->wlmap,
				      &g->nwl);
	case SEC_LAYERS:
		return ts_layers_load(res->layers, r, g->kmap, g->kslots, g->nk, g->opmap, g->nop,
				      g->wlmap, g->nwl);
	case SEC_RANKS:
		return ranks_load(g->ranks, r);
	case SEC_CAPTURES:
		return captures_merge(res, r, &g->gmap, &g->ngmap, &g->captures);
	case SEC_REPLAYS:
		return replays_merge(res, r, g->gmap, g->ngmap, g->captures);
	case SEC_COMM:
		return res->comm ? ts_comm_load(res->comm, r) : TS_OK;
	case SEC_API:
		return res->api ? ts_api_load(res->api, r) : TS_OK;
	case SEC_MODULES:
		return ts_modules_load(res, r);
	}
	return TS_OK;
}

ts_status ts_partial_merge(ts_result *res, const unsigned char *p, size_t n,
			   ts_partial_ranks *ranks, unsigned flags, ts_error *err)
{
	merging g = { .res = res, .ranks = ranks };
	ts_status st = walk(p, n, flags, merge_section, &g, err);
	free(g.kmap);
	free(g.kslots);
	free(g.opmap);
	free(g.wlmap);
	free(g.gmap);
	return st;
}

/* --capture PARTIAL: the captures section alone, into a map. */
typedef struct {
	ts_capmap *map;
	const ts_patterns *patterns;
	bool present;
} taking;

static ts_status take_captures(void *ctx, uint32_t tag, ts_rbuf *r)
{
	taking *t = ctx;
	if (tag != SEC_CAPTURES) {
		r->at = r->n;   /* not read */
		return TS_OK;
	}
	uint8_t has = ts_r_u8(r);
	if (r->err || has > 1) {
		ts_r_fail(r, "a bad captures flag");
		return TS_ERR_PARTIAL;
	}
	t->present = has;
	if (!has)
		return TS_OK;
	long *gmap = NULL;
	size_t ng;
	ts_status st = ts_capmap_merge(t->map, t->patterns, r, &gmap, &ng);
	free(gmap);
	return st;
}

ts_status ts_partial_captures(ts_capmap *map, const ts_patterns *patterns,
			      const unsigned char *p, size_t n, bool *present, ts_error *err)
{
	taking t = { .map = map, .patterns = patterns };
	ts_status st = walk(p, n, 0, take_captures, &t, err);
	*present = t.present;
	return st;
}

bool ts_partial_is(const unsigned char *p, size_t n)
{
	return n >= sizeof magic && memcmp(p, magic, sizeof magic) == 0;
}

void ts_partial_ranks_free(ts_partial_ranks *ranks)
{
	for (size_t i = 0; i < ranks->n; i++)
		ts_rank_summary_free(&ranks->r[i]);
	free(ranks->r);
	*ranks = (ts_partial_ranks){ 0 };
}

/* Up to want bytes of f into buf: how many came (fewer: the end, or an
 * error, ferror says which). */
static size_t read_upto(FILE *f, unsigned char *buf, size_t want)
{
	size_t len = 0, got;
	while (len < want && (got = fread(buf + len, 1, want - len, f)) > 0)
		len += got;
	return len;
}

ts_status ts_partial_read_file(const char *path, unsigned char **p, size_t *n, ts_error *err)
{
	*p = NULL;
	*n = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return ts_error_set(err, TS_ERR_IO, "cannot open: %s", strerror(errno));
	struct stat sb;
	bool known = fstat(fileno(f), &sb) == 0;
	if (known && S_ISDIR(sb.st_mode)) {
		fclose(f);
		return ts_error_set(err, TS_ERR_IO, "is a directory, not a saved partial");
	}
	/* the header first: nothing past it is read before it holds, and then
	 * no more than the length it gives (a file's size must be it) */
	unsigned char head[HEADER_BYTES];
	size_t hn = read_upto(f, head, sizeof head);
	uint64_t size = known && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size
		      : hn == sizeof head ? HEADER_BYTES + 4 + le(head + 16, 8) : hn;
	if (size < hn)   /* a stream's length wrapped: the header's own number is named */
		size = UINT64_MAX;
	uint64_t total;
	ts_status st = ferror(f) ? ts_error_set(err, TS_ERR_IO, "read error: %s", strerror(errno))
				 : header_check(head, hn, size, &total, err);
	unsigned char *buf = NULL;
	if (st == TS_OK && (total > SIZE_MAX - 1 || !(buf = malloc((size_t)total + 1))))
		st = ts_error_set(err, TS_ERR_NOMEM, "out of memory (the header says %llu bytes)",
				  (unsigned long long)total);
	if (st == TS_OK) {
		memcpy(buf, head, hn);
		/* one byte past the length tells a stream that runs on */
		size_t len = hn + read_upto(f, buf + hn, (size_t)total + 1 - hn);
		if (ferror(f))
			st = ts_error_set(err, TS_ERR_IO, "read error: %s", strerror(errno));
		else if (len != total)
			st = fail(err, len, "cut short or extended: the header says %llu bytes, %s",
				  (unsigned long long)total, len < total ? "the file ends before" : "more follow");
		else {
			*p = buf;
			*n = len;
			buf = NULL;
		}
	}
	free(buf);
	fclose(f);
	return st;
}
