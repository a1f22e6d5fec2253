/*
 * options.h - the command line: what the user asked for, parsed and
 * checked once (options.c); usage errors exit with status 2 there.
 */
#ifndef TS_OPTIONS_H
#define TS_OPTIONS_H

#include <stddef.h>

#include "analysis/limits.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_XLSX, FMT_HTML, FMT_MD } out_format;

/* What the command runs: one of them. */
typedef enum {
	MODE_REPORT,                   /* tracestream TRACE: the report */
	MODE_OPS,                      /* tracestream ops TRACE */
	MODE_RANKS,                    /* several TRACEs or a directory: a rank each */
	MODE_MERGE,                    /* tracestream merge PART... */
	MODE_ANNOTATE,                 /* tracestream annotate TRACE... -o OUT */
	MODE_COMPARE,                  /* tracestream compare A B */
	MODE_PATTERNS,                 /* tracestream patterns list|check|explain */
	MODE_SCHEMA,                   /* tracestream schema */
} run_mode;

/* Options are read-only once parsed. */
typedef struct {
	out_format format;
	const char *output;            /* -o FILE; NULL: standard output */
	const char *table;             /* --table NAME (csv) */
	const char *csv_dir;           /* --csv-dir DIR */
	int top;
	int width;            /* -1: terminal width on a tty, else full names */
	int progress;         /* -1 auto, 0 off, 1 on */
	int verbose;
	int quiet;
	size_t read_size;
	int no_mmap;                   /* hidden --no-mmap: read plain files, not mapped */
	ts_limits limits;
	const char *pattern_dirs[15];  /* --patterns DIR, in order */
	size_t npattern_dirs;
	const char *model;             /* --model NAME */
	const char *gpu;               /* --device NAME */
	int full_names;
	int split_half_layers;
	int show_layers;
	int brief;
	int debug;
	char debug_layers[TS_MAX_LAYERS];
	long debug_pass;               /* --pass N: that pass's layers; -1 the first complete one */
	long expect_layers;
	int stage;                     /* --stage: ts_pstage + 1, 0 all */
	size_t join_mem;               /* --join-mem */
	size_t sort_mem;               /* --sort-mem */
	long decode_threshold;         /* --decode-threshold */
	const char *event_cat;         /* patterns explain --event */
	char **args;                   /* positional arguments */
	int nargs;
	run_mode mode;
	const char *path;              /* the TRACE; NULL for patterns */
	int verify_ops;                /* --verify-ops */
	const char *path_b;            /* compare: B */
	char *names[2];                /* --names A,B (one allocation, [0]) */
	double threshold_us, threshold_pct;
	double fail_if_slower;         /* -1: no gate */
	const char *save_state;        /* --save-state FILE */
	int jobs;                      /* -j: analyses at a time (0: the cores) */
	int threads;                   /* -T: parse threads per trace (0: the cores) */
	size_t piece_size;             /* hidden --piece-size: bytes a thread parses at a time */
	const char *captures[64];      /* --capture FILE|DIR, in order */
	size_t ncaptures;
	const char *captures_b[64];    /* compare: --capture-b, B's own */
	size_t ncaptures_b;
} options;

/* Parse argv into *o; a usage error prints its message and exits 2. */
void ts_options_parse(int argc, char **argv, options *o);
/* Print "tracestream: " fmt (with arg) and the usage hint, exit 2. */
void ts_usage_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
