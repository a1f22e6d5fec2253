/*
 * main.c - the command line: options, one analysis, one report, exit code.
 *
 * Only this file prints diagnostics and exits. Exit codes (README.md):
 * 0 ok, 1 bad or truncated trace (a partial report is still printed),
 * 2 usage or I/O error (including a failed write to stdout), 3 patterns,
 * 4 --verify-ops found a required operator missing, 5 compare
 * --fail-if-slower found B slower than allowed.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables/classify.h"
#include "tables/gpu.h"
#include "multi.h"
#include "report/outfile.h"
#include "partial.h"
#include "tables/patterns.h"
#include "pipeline.h"
#include "report/report.h"
#include "report/version.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_XLSX, FMT_HTML } out_format;

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
	long expect_layers;
	int stage;                     /* --stage: ts_pstage + 1, 0 all */
	size_t join_mem;               /* --join-mem */
	long decode_threshold;         /* --decode-threshold */
	const char *event_cat;         /* patterns explain --event */
	char **args;                   /* positional arguments */
	int nargs;
	const char *path;              /* the TRACE; NULL for a command */
	int ops_command;               /* tracestream ops TRACE */
	int verify_ops;                /* --verify-ops */
	int compare;                   /* tracestream compare A B */
	const char *path_b;            /* compare: B */
	char *names[2];                /* --names A,B (one allocation, [0]) */
	double threshold_us, threshold_pct;
	double fail_if_slower;         /* -1: no gate */
	int multi;                     /* several TRACEs or a directory: ranks */
	int merge;                     /* tracestream merge PART... */
	const char *save_state;        /* --save-state FILE */
	int jobs;                      /* -j: analyses at a time (0: the cores) */
	const char *captures[64];      /* --capture FILE|DIR, in order */
	size_t ncaptures;
	const char *captures_b[64];    /* compare: --capture-b, B's own */
	size_t ncaptures_b;
} options;

static const char usage_text[] =
	"Usage: tracestream [options] TRACE\n"
	"       tracestream [options] TRACE TRACE... | DIR   (one job, a trace per rank)\n"
	"       tracestream merge [options] PART...   (partials from --save-state)\n"
	"       tracestream ops [options] TRACE\n"
	"       tracestream compare [options] A B\n"
	"       tracestream patterns list|check [DIR...]|explain 'KERNEL NAME'\n"
	"Summarise a PyTorch profiler (Kineto) trace: where the GPU time went.\n"
	"TRACE is a .json or gzip'ed .json file, or - for standard input; several\n"
	"TRACEs (or a directory of them) are the ranks of one job: a rank table and\n"
	"the skew between ranks (text or json).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT     text (default), json, html (one self-contained page\n"
	"                       with charts), csv (one table: --table) or xlsx (an\n"
	"                       Excel workbook of every table; with -o)\n"
	"  -o, --output FILE    write the report to FILE (whole or not at all)\n"
	"      --table NAME     the table --format csv writes: kernels, types,\n"
	"                       categories, unclassified, ops, workloads, layers,\n"
	"                       passes, stages, memory, replays (--capture), ranks\n"
	"                       or skew (several traces)\n"
	"      --csv-dir DIR    also write every table as DIR/NAME.csv\n"
	"  -n, --top N          kernel rows in the text report (default 20, 0 = all)\n"
	"  -w, --width N        shorten kernel names to fit N columns\n"
	"                       (default: the terminal width; full names on a pipe)\n"
	"      --progress       show a progress line on stderr even when not a terminal\n"
	"      --no-progress    never show the progress line\n"
	"      --full-names     full kernel names in the text report, not short ones\n"
	"      --max-kernels N  distinct kernel names kept (default 4096; the rest\n"
	"                       are folded into an (other) row)\n"
	"  -p, --patterns DIR   also load pattern tables from DIR (repeatable); its\n"
	"                       rules come before the built-in ones\n"
	"  -m, --model NAME     use this model family instead of detecting it\n"
	"      --device NAME    the GPU whose peaks the roofline uses (devices: in the\n"
	"                       pattern tables), instead of the trace's GPU\n"
	"      --split-half-layers  keep attention and MLP half-layers apart\n"
	"      --expect-layers N    warn when a complete pass has not N layers\n"
	"      --show-layers        print the typical layer of each stage kernel by\n"
	"                       kernel, in order, and the per-layer table\n"
	"      --brief              print only the first screen: what the trace is,\n"
	"                       time per pass, the typical layer, top categories\n"
	"                       and kernels, the largest opportunities\n"
	"      --debug-layers LIST  print the kernels of these layers of the first\n"
	"                       complete pass (LIST like 0,1,5-7)\n"
	"      --stage STAGE        only prefill, decode, mixed or unknown kernels,\n"
	"                       passes and layers in every table (default all)\n"
	"      --decode-threshold N GEMM ops with at most N token rows vote decode,\n"
	"                       more vote prefill (default 32)\n"
	"      --join-mem SIZE      memory for each join index (default 64M): kernel ->\n"
	"                       CPU op, about 2.3 bytes per op; launch -> Python frame,\n"
	"                       24 bytes per frame kept; entries past it are counted\n"
	"      --capture FILE|DIR   graph-capture traces of the same run (repeatable;\n"
	"                       a directory: its *.json, *.json.gz; or a partial\n"
	"                       saved with --capture): replayed graph kernels get\n"
	"                       the op, call site and workload of their captured\n"
	"                       node; GRAPH REPLAYS says what matched\n"
	"      --capture-b FILE|DIR compare: B's own captures (then --capture is A's)\n"
	"      --verify-ops         print OPERATOR COVERAGE: the model family's required\n"
	"                       and optional operators found in the trace; exit 4\n"
	"                       when a required one is missing\n"
	"\n"
	"Commands:\n"
	"  compare A B          where B spends more GPU time than A: operation groups\n"
	"                       (fusion-aware), layers, and the kernels of a typical\n"
	"                       layer aligned; both traces are read at once\n"
	"      --names A,B          labels of the two traces (default: the file names)\n"
	"      --threshold-us N     gaps of at most N us are similar (default 1)\n"
	"      --threshold-pct N    gaps of at most N%% of A are similar (default 5)\n"
	"      --fail-if-slower PCT exit 5 when B's kernel time (of --stage) is more\n"
	"                       than PCT%% above A's\n"
	"  merge PART...        one report from saved partials (--save-state), as if\n"
	"                       their traces were analysed in one run; any grouping\n"
	"  ops TRACE            operator workloads (gemm_n4096_k4096, ...) with calls,\n"
	"                       tokens min/p50/max, kernel time and dtype; CPU ops\n"
	"  patterns list        model families and kernel categories with their rules\n"
	"  patterns check [DIR...]  validate the built-in tables plus each DIR\n"
	"  patterns explain NAME    which rule classifies a kernel name, and how\n"
	"                       (--event gpu_memcpy|gpu_memset for memory operations)\n"
	"  -j, --jobs N         ranks analysed at a time (default: the cores)\n"
	"      --save-state FILE    also save the analysis as a partial that\n"
	"                       tracestream merge reads (the ranks' summaries too)\n"
	"  -v, --verbose        print throughput and peak memory to stderr\n"
	"  -q, --quiet          do not print warnings\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 ok, 1 bad or truncated trace (a partial report is printed),\n"
	"2 usage or I/O error, 3 pattern table error, 4 --verify-ops found a required\n"
	"operator missing, 5 compare --fail-if-slower: B is slower than allowed.\n";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "tracestream: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nhint: tracestream --help\n");
	exit(TS_EXIT_USAGE_IO);
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		char msg[160];
		snprintf(msg, sizeof msg, "%s: '%%s' is not a number from %ld to %ld",
			 opt, lo, hi);
		usage_error(msg, s);
	}
	return v;
}

/* "64M", "512K", "1G", "100000" -> bytes (binary units); a usage error
 * for anything else or outside [lo, 64G]. */
static size_t parse_bytes(const char *opt, const char *s, size_t lo)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (errno || end == s || *end || s[0] == '-' || v > (64ull << 30) >> shift ||
	    (v << shift) < lo) {
		char msg[160];
		snprintf(msg, sizeof msg, "%s: '%%s' is not a size from %zu bytes to 64G (e.g. 64M)",
			 opt, lo);
		usage_error(msg, s);
	}
	return (size_t)(v << shift);
}

/* "0,1,5-7" -> flags; a usage error for anything else. */
static void parse_layer_list(const char *arg, char *flags)
{
	const char *p = arg;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a >= TS_MAX_LAYERS)
			usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= TS_MAX_LAYERS)
				usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
			p = end;
		}
		for (long i = a; i <= b; i++)
			flags[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
	}
}

enum {
	OPT_PROGRESS = 256, OPT_NO_PROGRESS, OPT_READ_SIZE, OPT_MAX_KERNELS,
	OPT_FULL_NAMES, OPT_EVENT, OPT_SPLIT_HALF, OPT_EXPECT_LAYERS,
	OPT_SHOW_LAYERS, OPT_BRIEF, OPT_DEBUG_LAYERS, OPT_STAGE, OPT_JOIN_MEM, OPT_DEVICE, OPT_DECODE_THRESHOLD, OPT_VERIFY_OPS, OPT_SAVE_STATE, OPT_CAPTURE, OPT_CAPTURE_B,
	OPT_NAMES, OPT_THRESHOLD_US, OPT_THRESHOLD_PCT, OPT_FAIL_IF_SLOWER, OPT_TABLE, OPT_CSV_DIR,
};

static double parse_double(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		char msg[160];
		snprintf(msg, sizeof msg, "%s: '%%s' is not a number from %g to %g", opt, lo, hi);
		usage_error(msg, s);
	}
	return v;
}


/* The output format's own needs: csv one --table, xlsx a file. */
static void check_formats(const options *o)
{
	if (o->format == FMT_CSV && !o->table)
		usage_error("%s", "--format csv writes one table: name it with --table "
			    "(or write them all with --csv-dir DIR)");
	if (o->table && o->format != FMT_CSV)
		usage_error("%s", "--table goes with --format csv");
	if (o->format == FMT_XLSX && (!o->output || strcmp(o->output, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		usage_error("%s", "--format xlsx writes a binary workbook: name the file with -o FILE");
}

static void parse_options(int argc, char **argv, options *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "table", required_argument, NULL, OPT_TABLE },
		{ "csv-dir", required_argument, NULL, OPT_CSV_DIR },
		{ "top", required_argument, NULL, 'n' },
		{ "width", required_argument, NULL, 'w' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "read-size", required_argument, NULL, OPT_READ_SIZE },
		{ "max-kernels", required_argument, NULL, OPT_MAX_KERNELS },
		{ "full-names", no_argument, NULL, OPT_FULL_NAMES },
		{ "patterns", required_argument, NULL, 'p' },
		{ "model", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "split-half-layers", no_argument, NULL, OPT_SPLIT_HALF },
		{ "expect-layers", required_argument, NULL, OPT_EXPECT_LAYERS },
		{ "show-layers", no_argument, NULL, OPT_SHOW_LAYERS },
		{ "brief", no_argument, NULL, OPT_BRIEF },
		{ "debug-layers", required_argument, NULL, OPT_DEBUG_LAYERS },
		{ "stage", required_argument, NULL, OPT_STAGE },
		{ "join-mem", required_argument, NULL, OPT_JOIN_MEM },
		{ "decode-threshold", required_argument, NULL, OPT_DECODE_THRESHOLD },
		{ "verify-ops", no_argument, NULL, OPT_VERIFY_OPS },
		{ "names", required_argument, NULL, OPT_NAMES },
		{ "threshold-us", required_argument, NULL, OPT_THRESHOLD_US },
		{ "threshold-pct", required_argument, NULL, OPT_THRESHOLD_PCT },
		{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
		{ "jobs", required_argument, NULL, 'j' },
		{ "save-state", required_argument, NULL, OPT_SAVE_STATE },
		{ "capture", required_argument, NULL, OPT_CAPTURE },
		{ "capture-b", required_argument, NULL, OPT_CAPTURE_B },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (options){ .format = FMT_TEXT, .top = 20, .width = -1,
			.progress = -1, .limits = ts_limits_default(),
			.threshold_us = TS_CMP_THRESHOLD_US, .threshold_pct = TS_CMP_THRESHOLD_PCT,
			.fail_if_slower = -1 };
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":f:o:n:w:p:m:j:vqhV", longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o->format = FMT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FMT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				o->format = FMT_CSV;
			else if (strcmp(optarg, "xlsx") == 0)
				o->format = FMT_XLSX;
			else if (strcmp(optarg, "html") == 0)
				o->format = FMT_HTML;
			else
				usage_error("--format: '%s' is not text, json, html, csv or xlsx", optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_TABLE:
			if (!ts_report_table_known(optarg))
				usage_error("--table: '%s' is not kernels, types, categories, unclassified, "
					    "ops, workloads, layers, passes, stages, memory, replays, ranks "
					    "or skew", optarg);
			o->table = optarg;
			break;
		case OPT_CSV_DIR:
			o->csv_dir = optarg;
			break;
		case 'n':
			o->top = (int)parse_long("--top", optarg, 0, INT_MAX);
			break;
		case 'j':
			o->jobs = (int)parse_long("--jobs", optarg, 1, 1024);
			break;
		case OPT_SAVE_STATE:
			o->save_state = optarg;
			break;
		case OPT_CAPTURE:
			if (o->ncaptures == sizeof o->captures / sizeof *o->captures)
				usage_error("--capture: at most 64 ('%s'); name a directory", optarg);
			o->captures[o->ncaptures++] = optarg;
			break;
		case OPT_CAPTURE_B:
			if (o->ncaptures_b == sizeof o->captures_b / sizeof *o->captures_b)
				usage_error("--capture-b: at most 64 ('%s'); name a directory", optarg);
			o->captures_b[o->ncaptures_b++] = optarg;
			break;
		case 'w':
			o->width = (int)parse_long("--width", optarg, 0, 100000);
			break;
		case OPT_PROGRESS:
			o->progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o->progress = 0;
			break;
		case OPT_READ_SIZE:
			o->read_size = (size_t)parse_long("--read-size", optarg, 1, 1 << 20);
			break;
		case OPT_MAX_KERNELS:
			o->limits.max_kernel_names =
				(uint32_t)parse_long("--max-kernels", optarg, 1, 1 << 20);
			break;
		case OPT_FULL_NAMES:
			o->full_names = 1;
			break;
		case 'p':
			if (o->npattern_dirs == sizeof o->pattern_dirs / sizeof *o->pattern_dirs)
				usage_error("--patterns: at most 15 directories ('%s')", optarg);
			o->pattern_dirs[o->npattern_dirs++] = optarg;
			break;
		case 'm':
			o->model = optarg;
			break;
		case OPT_EVENT:
			o->event_cat = optarg;
			break;
		case OPT_SPLIT_HALF:
			o->split_half_layers = 1;
			break;
		case OPT_SHOW_LAYERS:
			o->show_layers = 1;
			break;
		case OPT_BRIEF:
			o->brief = 1;
			break;
		case OPT_DEBUG_LAYERS:
			parse_layer_list(optarg, o->debug_layers);
			o->debug = 1;
			break;
		case OPT_STAGE:
			o->stage = 0;
			for (int st = 0; st < TS_PSTAGE_COUNT; st++)
				if (strcmp(optarg, ts_pstage_name((ts_pstage)st)) == 0)
					o->stage = st + 1;
			if (o->stage == 0 && strcmp(optarg, "all") != 0)
				usage_error("--stage: '%s' is not prefill, decode, mixed, unknown or all",
					    optarg);
			break;
		case OPT_DECODE_THRESHOLD:
			o->decode_threshold = parse_long("--decode-threshold", optarg, 1, 1L << 30);
			break;
		case OPT_JOIN_MEM:
			o->join_mem = parse_bytes("--join-mem", optarg, 16);
			break;
		case OPT_DEVICE:
			o->gpu = optarg;
			break;
		case OPT_EXPECT_LAYERS:
			o->expect_layers = parse_long("--expect-layers", optarg, 1, 100000);
			break;
		case OPT_VERIFY_OPS:
			o->verify_ops = 1;
			break;
		case OPT_NAMES: {
			const char *comma = strchr(optarg, ',');
			if (!comma || comma == optarg || !comma[1] || strchr(comma + 1, ','))
				usage_error("--names: '%s' is not two labels like NAME_A,NAME_B", optarg);
			free(o->names[0]);
			o->names[0] = strdup(optarg);
			if (!o->names[0])
				usage_error("%s", "out of memory");
			o->names[0][comma - optarg] = '\0';
			o->names[1] = o->names[0] + (comma - optarg) + 1;
			break;
		}
		case OPT_THRESHOLD_US:
			o->threshold_us = parse_double("--threshold-us", optarg, 0, 1e12);
			break;
		case OPT_THRESHOLD_PCT:
			o->threshold_pct = parse_double("--threshold-pct", optarg, 0, 1e6);
			break;
		case OPT_FAIL_IF_SLOWER:
			o->fail_if_slower = parse_double("--fail-if-slower", optarg, 0, 1e6);
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(fflush(stdout) || ferror(stdout) ? TS_EXIT_USAGE_IO : TS_EXIT_OK);
		case 'V':
			printf("tracestream %s\n", TS_VERSION);
			exit(fflush(stdout) || ferror(stdout) ? TS_EXIT_USAGE_IO : TS_EXIT_OK);
		case ':':
			usage_error("option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->nargs > 0 && strcmp(o->args[0], "patterns") == 0)
		return;   /* a command: its arguments are checked by run_patterns */
	if (o->nargs > 0 && strcmp(o->args[0], "ops") == 0) {
		o->ops_command = 1;
		o->args++;
		o->nargs--;
		if (o->nargs == 0)
			usage_error("%s", "ops needs a TRACE (a file, or - for standard input)");
	}
	if (o->nargs > 0 && strcmp(o->args[0], "merge") == 0) {
		o->merge = 1;
		if (o->nargs < 2)
			usage_error("%s", "merge needs saved partials: tracestream merge PART... "
				    "(made with --save-state)");
		if (o->ncaptures || o->ncaptures_b)
			usage_error("%s", "merge: --capture applies to traces; give it when the partials "
				    "are saved (--save-state)");
		if (o->verify_ops || o->debug || o->show_layers || o->brief)
			usage_error("%s", "merge: --verify-ops, --debug-layers, --show-layers and --brief "
				    "apply to one trace");
		check_formats(o);
		o->path = o->args[1];
		return;
	}
	if (o->nargs > 0 && strcmp(o->args[0], "compare") == 0) {
		o->compare = 1;
		if (o->nargs != 3)
			usage_error("%s", "compare needs two traces: tracestream compare A B");
		o->path = o->args[1];
		o->path_b = o->args[2];
		if (strcmp(o->path, "-") == 0 && strcmp(o->path_b, "-") == 0)
			usage_error("%s", "compare: only one side can be standard input ('-')");
		if (o->verify_ops || o->debug || o->show_layers || o->save_state)
			usage_error("%s", "compare: --verify-ops, --debug-layers, --show-layers and "
				    "--save-state apply to one trace; run them on each");
		if (o->format == FMT_XLSX)
			usage_error("%s", "compare: --format xlsx applies to one trace; compare writes "
				    "text, json, html or csv (--table ops or layers)");
		if (o->table && strcmp(o->table, "ops") != 0 && strcmp(o->table, "layers") != 0)
			usage_error("compare: --table '%s': compare's tables are ops and layers", o->table);
		if (o->format == FMT_CSV && !o->table)
			usage_error("%s", "--format csv writes one table: name it with --table "
				    "(or write them all with --csv-dir DIR)");
		if (o->table && o->format != FMT_CSV)
			usage_error("%s", "--table goes with --format csv");
		return;
	}
	if (o->names[0] || o->fail_if_slower >= 0 || o->ncaptures_b)
		usage_error("%s", "--names, --fail-if-slower and --capture-b apply to compare only");
	check_formats(o);
	if (o->nargs == 0)
		usage_error("%s", "no TRACE given (a file, or - for standard input)");
	o->path = o->args[0];
	if (o->nargs > 1 || ts_multi_any_dir(o->args, (size_t)o->nargs)) {
		o->multi = 1;
		if (o->ops_command)
			usage_error("%s", "ops reads one TRACE at a time");
		if (o->verify_ops || o->debug || o->show_layers || o->brief)
			usage_error("%s", "--verify-ops, --debug-layers, --show-layers and --brief "
				    "apply to one trace; run them on each");
	}
}

/* Load the tables; on failure print every error and return NULL. */
static ts_patterns *load_patterns(const char *const *dirs, size_t ndirs,
				  ts_status *st)
{
	char errors[20][512];
	size_t n;
	ts_patterns *p = NULL;
	ts_patterns_source src = { .user_dirs = dirs, .nuser_dirs = ndirs };
	*st = ts_patterns_load(&src, &p, errors, 20, &n);
	for (size_t i = 0; i < n && i < 20; i++)
		fprintf(stderr, "%s\n", errors[i]);
	if (n > 20)
		fprintf(stderr, "tracestream: ... and %zu more pattern errors\n", n - 20);
	if (*st != TS_OK)
		fprintf(stderr, "tracestream: pattern tables are not valid%s\n",
			*st == TS_ERR_IO ? "" : " (see the errors above; patterns/README.md has the schema)");
	return p;
}

static void describe_sels(const ts_patterns *p, const char *what, const ts_selectors *s)
{
	if (!s->n)
		return;
	printf("    %-10s", what);
	for (size_t i = 0; i < s->n; i++) {
		char d[300];
		ts_selector_describe(p, &s->v[i], d, sizeof d);
		printf("%s%s", i ? ", " : "", d);
		if (s->v[i].weight && strcmp(what, "detect") == 0)
			printf(" (%+ld)", s->v[i].weight);
	}
	putchar('\n');
}

static int patterns_list(const ts_patterns *p)
{
	printf("Pattern tables from:");
	for (size_t i = 0; i < ts_patterns_ndirs(p); i++)
		printf(" %s", ts_patterns_dir(p, i));
	printf("\n\nModel families (%zu)\n", ts_patterns_nfamilies(p));
	for (size_t i = 0; i < ts_patterns_nfamilies(p); i++) {
		const ts_family *f = ts_patterns_family(p, i);
		printf("  %-12s %s\n", f->name, f->description);
		printf("    %-10sattention %s, mlp %s%s; layers", "shape",
		       ts_attn_kind_name(f->attention), ts_mlp_kind_name(f->mlp),
		       f->half_layers ? ", half-layers" : "");
		for (size_t k = 0; k < f->nnum_layers; k++)
			printf("%s%ld", k ? ", " : " ", f->num_layers[k]);
		printf(" (%s)\n", f->file);
		describe_sels(p, "start", &f->layer_start);
		describe_sels(p, "detect", &f->detect);
	}
	printf("\nKernel categories (%zu) and the rules that lead to them\n",
	       ts_patterns_ncategories(p));
	for (size_t c = 0; c < ts_patterns_ncategories(p); c++) {
		const ts_category *cat = ts_patterns_category(p, c);
		printf("  %-26s %-14s %s\n", cat->name, ts_ktype_name(cat->type), cat->description);
		for (size_t r = 0; r < ts_patterns_nrules(p); r++) {
			const ts_rule *rule = ts_patterns_rule(p, r);
			if (rule->category == (int)c)
				printf("      %-24s %s\n", rule->name, rule->match);
		}
	}
	printf("\nContexts (a kernel's category where it runs; the first that applies wins)\n");
	for (size_t i = 0; i < ts_patterns_ncontexts(p); i++) {
		const ts_context *c = ts_patterns_context(p, i);
		printf("  %-30s -> %-18s %s\n", c->name, ts_patterns_category(p, (size_t)c->category)->name,
		       c->description);
		if (c->op)
			printf("      launched by an op matching %s\n", c->op);
		else
			printf("      between a kernel of after: and one of until: (%zu and %zu selectors)\n",
			       c->after.n, c->until.n);
	}
	return TS_EXIT_OK;
}

/* "explain -": one name per line on stdin, optionally "EVENT<TAB>NAME";
 * one TSV line out per name: type, category, stage, rule, short, name. */
static int explain_batch(const ts_patterns *p)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		const char *name = line;
		ts_cat cat = TS_CAT_KERNEL;
		char *tab = strchr(line, '\t');
		if (tab) {
			*tab = '\0';
			cat = strcmp(line, "gpu_memcpy") == 0 ? TS_CAT_GPU_MEMCPY
			    : strcmp(line, "gpu_memset") == 0 ? TS_CAT_GPU_MEMSET : TS_CAT_KERNEL;
			name = tab + 1;
		}
		ts_kclass c;
		ts_classify(p, cat, name, strlen(name), &c);
		printf("%s\t%s\t%s\t%s\t%s\t%s\n", ts_ktype_name(c.type),
		       ts_kclass_category(p, &c), ts_stage_hint_name(c.stage),
		       c.rule >= 0 ? ts_patterns_rule(p, (size_t)c.rule)->name : "-",
		       c.short_name, name);
	}
	free(line);
	return TS_EXIT_OK;
}

static int patterns_explain(const ts_patterns *p, const options *o)
{
	if (o->nargs != 3)
		usage_error("%s", "patterns explain takes one kernel name (quote it)");
	ts_cat cat = TS_CAT_KERNEL;
	if (o->event_cat) {
		if (strcmp(o->event_cat, "gpu_memcpy") == 0)
			cat = TS_CAT_GPU_MEMCPY;
		else if (strcmp(o->event_cat, "gpu_memset") == 0)
			cat = TS_CAT_GPU_MEMSET;
		else if (strcmp(o->event_cat, "kernel") != 0)
			usage_error("--event: '%s' is not kernel, gpu_memcpy or gpu_memset", o->event_cat);
	}
	const char *name = o->args[2];
	if (strcmp(name, "-") == 0)
		return explain_batch(p);
	ts_kclass c;
	ts_classify(p, cat, name, strlen(name), &c);
	printf("name      %s\n", name);
	if (c.rule >= 0) {
		const ts_rule *r = ts_patterns_rule(p, (size_t)c.rule);
		printf("rule      %s (%s:%d)\n", r->name, r->file, r->line);
		printf("match     %s\n", r->match);
	} else {
		printf("rule      none: no rule matches (add one to patterns/kernels.yaml)\n");
	}
	printf("type      %s\n", ts_ktype_name(c.type));
	printf("category  %s\n", ts_kclass_category(p, &c));
	printf("stage     %s\n", ts_stage_hint_name(c.stage));
	printf("short     %s\n", c.short_name);
	return TS_EXIT_OK;
}

/* tracestream patterns list|check|explain */
static int run_patterns(const options *o)
{
	if (o->nargs < 2)
		usage_error("%s", "patterns needs a command: list, check or explain");
	const char *cmd = o->args[1];
	const char *dirs[32];
	size_t ndirs = 0;
	for (size_t i = 0; i < o->npattern_dirs; i++)
		dirs[ndirs++] = o->pattern_dirs[i];
	bool check = strcmp(cmd, "check") == 0;
	if (check)
		for (int i = 2; i < o->nargs && ndirs < 15; i++)
			dirs[ndirs++] = o->args[i];
	else if (strcmp(cmd, "list") != 0 && strcmp(cmd, "explain") != 0)
		usage_error("unknown patterns command '%s' (list, check or explain)", cmd);
	else if (strcmp(cmd, "list") == 0 && o->nargs > 2)
		usage_error("patterns list takes no arguments; unexpected '%s'", o->args[2]);
	ts_status st;
	ts_patterns *p = load_patterns(dirs, ndirs, &st);
	if (!p)
		return st == TS_ERR_IO ? TS_EXIT_USAGE_IO : TS_EXIT_PATTERNS;
	int rc;
	if (check) {
		printf("ok: %zu categories, %zu rules, %zu operator rules, %zu call-site skips,"
		       " %zu model families, %zu contexts, %zu token-grid selectors from",
		       ts_patterns_ncategories(p), ts_patterns_nrules(p),
		       ts_patterns_noprules(p), ts_patterns_nskips(p), ts_patterns_nfamilies(p),
		       ts_patterns_ncontexts(p), ts_patterns_token_grids(p)->n);
		for (size_t i = 0; i < ts_patterns_ndirs(p); i++)
			printf(" %s", ts_patterns_dir(p, i));
		putchar('\n');
		rc = TS_EXIT_OK;
	} else if (strcmp(cmd, "list") == 0) {
		rc = patterns_list(p);
	} else {
		rc = patterns_explain(p, o);
	}
	ts_patterns_free(p);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tracestream: <stdout>: write error: %s\n", strerror(errno));
		return TS_EXIT_USAGE_IO;
	}
	return rc;
}

static bool want_progress(const options *o)
{
	if (o->progress >= 0)
		return o->progress;
	const char *ci = getenv("CI");
	return isatty(STDERR_FILENO) && !(ci && *ci) && !o->quiet;
}

static int text_width(const options *o)
{
	if (o->width >= 0)
		return o->width;
	if (o->output && strcmp(o->output, "-") != 0)
		return 0;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

/* Regexes of the tables that gave up on a name (PCRE2's limits): a table
 * error, after the report. */
static bool regex_limits(const ts_patterns *p)
{
	char lines[8][TS_PATTERN_ERR_LEN];
	size_t n = ts_patterns_regex_limits(p, lines, 8);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "tracestream: %s\n", lines[i]);
	return n > 0;
}

/* --csv-dir DIR: every table (of a trace, or of compare c) as
 * DIR/NAME.csv, DIR made when missing. */
static bool csv_dir(const char *dir, const ts_result *res, const ts_report_opts *ro,
		    const ts_compare *c)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracestream: %s: cannot make the directory: %s\n", dir, strerror(errno));
		return false;
	}
	const char *const *names = c ? ts_report_compare_tables : ts_report_tables;
	for (size_t i = 0; names[i]; i++) {
		if (!c && !ts_report_table_applies(res, ro, names[i]))
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof path, "%s/%s.csv", dir, names[i]) >= (int)sizeof path) {
			fprintf(stderr, "tracestream: %s: path too long\n", dir);
			return false;
		}
		ts_outfile of;
		if (!ts_outfile_open(&of, path) ||
		    !ts_outfile_close(&of, (c ? ts_report_compare_csv(of.f, c, names[i])
					      : ts_report_csv(of.f, res, ro, names[i])) == 0)) {
			fprintf(stderr, "tracestream: %s\n", of.err);
			return false;
		}
	}
	return true;
}

static bool write_csv_dir(const char *dir, const ts_result *res, const ts_report_opts *ro)
{
	return csv_dir(dir, res, ro, NULL);
}

static bool write_cmp_csv_dir(const char *dir, const ts_compare *c)
{
	return csv_dir(dir, NULL, NULL, c);
}

static void print_error(const ts_result *res, const char *side)
{
	char buf[PATH_MAX + 64];
	const char *what = strcmp(res->path, "-") == 0 ? "<stdin>" : res->path;
	if (side) {
		snprintf(buf, sizeof buf, "%s: %s", side, what);
		what = buf;
	}
	if (!res->opened) {
		fprintf(stderr, "tracestream: %s: %s\n", what, res->error);
		if (res->open_errno == ENOENT)
			fprintf(stderr, "hint: check the path; use - to read standard input\n");
		return;
	}
	if (res->error_in_compressed)
		fprintf(stderr, "tracestream: %s: byte %" PRIu64 " (compressed): %s\n",
			what, res->error_byte, res->error);
	else
		fprintf(stderr, "tracestream: %s: byte %" PRIu64 "%s: %s\n", what,
			res->error_byte, res->gzip ? " (decompressed)" : "", res->error);
	if (res->partial)
		fprintf(stderr, "tracestream: the report covers only what was read before this point (marked partial)\n");
}

static void print_verbose(const ts_result *res)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double mb = (double)res->json_bytes / 1e6;
	fprintf(stderr,
		"tracestream: %.1f MB of JSON in %.3f s (%.1f MB/s), peak RSS %.1f MB, tables %.1f KB\n",
		mb, res->seconds, res->seconds > 0 ? mb / res->seconds : 0.0,
		(double)ru.ru_maxrss / 1024.0,
		res->agg ? (double)ts_agg_bytes(res->agg) / 1024.0 : 0.0);
}

/* Does the file begin as a saved partial does? */
static bool is_partial_file(const char *path)
{
	unsigned char head[8];
	if (strcmp(path, "-") == 0)
		return false;
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	return ts_partial_is(head, got);
}

/* --capture PARTIAL: the capture map a partial saved with --capture
 * carries. false: it could not be read (*fatal) or was bad (printed). */
static bool take_partial_captures(ts_capmap *map, const char *flag, const char *path,
				  const ts_patterns *patterns, bool *fatal)
{
	unsigned char *p;
	size_t n;
	char err[400];
	uint64_t at = 0;
	bool present = false;
	ts_status st = ts_partial_read_file(path, &p, &n, err, sizeof err);
	if (st != TS_OK) {
		fprintf(stderr, "tracestream: %s: %s: %s\n", flag, path, err);
		*fatal = true;
		return false;
	}
	st = ts_partial_captures(map, patterns, p, n, &present, err, sizeof err, &at);
	free(p);
	if (st == TS_ERR_NOMEM) {
		fprintf(stderr, "tracestream: %s: %s: out of memory\n", flag, path);
		*fatal = true;
		return false;
	}
	if (st != TS_OK) {
		fprintf(stderr, "tracestream: %s: %s: byte %" PRIu64 ": bad saved partial: %s\n",
			flag, path, at, err);
		return false;
	}
	if (!present) {
		fprintf(stderr, "tracestream: %s: %s: a saved partial with no capture map "
			"(its run had no --capture)\n", flag, path);
		return false;
	}
	return true;
}

/* --capture (or compare's --capture-b, the flag named in messages): read
 * every capture trace of the list, recording its graphs, and the capture
 * maps of saved partials. Errors are printed; graphs of the windows read
 * before one are kept. Returns the map (NULL: out of memory, or a capture
 * that could not be opened) and in *bad whether a capture was bad. */
static ts_capmap *read_captures(const options *o, const char *flag, const char *const *list,
				size_t nlist, const ts_pipeline_opts *base, bool *bad)
{
	char **paths = NULL;
	size_t n = 0;
	char err[600];
	*bad = false;
	if (!ts_multi_paths((char *const *)list, nlist, &paths, &n, err, sizeof err)) {
		fprintf(stderr, "tracestream: %s: %s\n", flag, err);
		return NULL;
	}
	ts_capmap *map = ts_capmap_new();
	if (!map) {
		fprintf(stderr, "tracestream: %s: out of memory\n", flag);
		ts_multi_paths_free(paths, n);
		return NULL;
	}
	ts_pipeline_opts po = *base;
	po.progress = NULL;
	po.captures = NULL;
	po.record = map;
	po.layers.debug = 0;
	for (size_t i = 0; i < n; i++) {
		if (is_partial_file(paths[i])) {
			bool fatal = false;
			if (!take_partial_captures(map, flag, paths[i], base->patterns, &fatal))
				*bad = true;
			if (fatal) {
				ts_capmap_free(map);
				ts_multi_paths_free(paths, n);
				return NULL;
			}
			continue;
		}
		ts_result res;
		ts_status st = ts_pipeline_run(paths[i], &po, &res);
		if (!res.opened || st == TS_ERR_NOMEM) {
			print_error(&res, flag);
			ts_result_free(&res);
			ts_capmap_free(map);
			ts_multi_paths_free(paths, n);
			return NULL;
		}
		if (st != TS_OK) {
			res.partial = false;   /* it is the capture that was cut, not the report */
			print_error(&res, flag);
			fprintf(stderr, "tracestream: %s: the graphs captured before that point are used\n",
				flag);
			*bad = true;
		}
		ts_result_free(&res);
	}
	ts_multi_paths_free(paths, n);
	const ts_capture_totals *t = ts_capmap_totals(map);
	if (!ts_capmap_ngraphs(map) && !o->quiet)
		fprintf(stderr, "tracestream: warning: %s: no graph captures found "
			"(no StreamBeginCapture .. StreamEndCapture window with kernel launches) "
			"in %u file%s\n", flag, t->files, t->files == 1 ? "" : "s");
	if (o->verbose)
		fprintf(stderr, "tracestream: %s: %llu graphs (%zu distinct, %zu kernel nodes) "
			"from %u file%s, %.1f KB\n", flag, (unsigned long long)t->graphs,
			ts_capmap_ngraphs(map), ts_capmap_nnodes(map), t->files,
			t->files == 1 ? "" : "s", (double)ts_capmap_bytes(map) / 1024.0);
	return map;
}

static ts_pipeline_opts pipeline_opts(const options *o, const ts_patterns *patterns)
{
	ts_pipeline_opts po = { .read_size = o->read_size, .limits = o->limits,
				.join_mem = o->join_mem,
				.patterns = patterns, .model = o->model, .gpu = o->gpu,
				.layers = { .split_half_layers = o->split_half_layers,
					    .model = o->model, .expect_layers = o->expect_layers,
					    .decode_threshold = o->decode_threshold,
					    .debug = o->debug } };
	memcpy(po.layers.debug_layers, o->debug_layers, sizeof po.layers.debug_layers);
	return po;
}

/* One side of a comparison, run on its own thread. */
typedef struct {
	const char *path;
	const ts_pipeline_opts *po;
	ts_result res;
	ts_status st;
} side_run;

static void *run_side(void *arg)
{
	side_run *s = arg;
	s->st = ts_pipeline_run(s->path, s->po, &s->res);
	return NULL;
}

static const char *label_of(const char *path)
{
	if (strcmp(path, "-") == 0)
		return "<stdin>";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* tracestream compare A B: both analyses at once, one report. */
/* compare A B: both analysed at once; --capture serves both, unless B has
 * its own (--capture-b). */
static int run_compare(const options *o, const ts_pipeline_opts *base, const ts_capmap *captures_b)
{
	ts_pipeline_opts po = *base;
	po.layers.sample = true;
	po.progress = NULL;     /* two progress lines would fight over stderr */
	ts_pipeline_opts po_b = po;
	if (captures_b)
		po_b.captures = captures_b;
	side_run side[2] = { { .path = o->path, .po = &po }, { .path = o->path_b, .po = &po_b } };
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, run_side, &side[1]) == 0;
	run_side(&side[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		run_side(&side[1]);
	const char *tag[2] = { "A", "B" };
	int code = TS_EXIT_OK;
	for (int s = 0; s < 2; s++)
		if (!side[s].res.opened || !side[s].res.agg) {
			print_error(&side[s].res, tag[s]);
			code = ts_exit_code(side[s].st);
		}
	if (code != TS_EXIT_OK) {
		ts_result_free(&side[0].res);
		ts_result_free(&side[1].res);
		return code;
	}
	ts_cmp_opts co = { .threshold_us = o->threshold_us, .threshold_pct = o->threshold_pct,
			   .staged = o->stage > 0,
			   .stage = o->stage > 0 ? (ts_pstage)(o->stage - 1) : TS_PSTAGE_UNKNOWN };
	const char *na = o->names[0] ? o->names[0] : label_of(o->path);
	const char *nb = o->names[1] ? o->names[1] : label_of(o->path_b);
	ts_compare *c = ts_compare_new(&side[0].res, &side[1].res, na, nb, &co);
	if (!c) {
		fprintf(stderr, "tracestream: compare: out of memory\n");
		ts_result_free(&side[0].res);
		ts_result_free(&side[1].res);
		return TS_EXIT_USAGE_IO;
	}
	ts_report_opts ro = { .top = o->top, .width = text_width(o), .full_names = o->full_names };
	ts_outfile of;
	if (o->csv_dir && !write_cmp_csv_dir(o->csv_dir, c)) {
		code = TS_EXIT_USAGE_IO;
	} else if (!ts_outfile_open(&of, o->output)) {
		fprintf(stderr, "tracestream: %s\n", of.err);
		code = TS_EXIT_USAGE_IO;
	} else {
		int wr = o->format == FMT_JSON	 ? ts_report_compare_json(of.f, c, &ro)
			 : o->format == FMT_HTML ? ts_report_compare_html(of.f, c, &ro)
			 : o->format == FMT_CSV	 ? ts_report_compare_csv(of.f, c, o->table)
						 : ts_report_compare_text(of.f, c, &ro);
		if (!ts_outfile_close(&of, wr == 0)) {
			fprintf(stderr, "tracestream: %s\n", of.err);
			code = TS_EXIT_USAGE_IO;
		}
	}
	for (int s = 0; s < 2 && code == TS_EXIT_OK; s++)
		if (side[s].st != TS_OK)
			print_error(&side[s].res, tag[s]);
	for (int s = 0; s < 2; s++) {
		if (side[s].st != TS_OK && code == TS_EXIT_OK)
			code = ts_exit_code(side[s].st);
		if (!o->quiet) {
			char lines[16][TS_WARN_LEN];
			size_t n = ts_report_warnings(&side[s].res, lines, 16);
			for (size_t i = 0; i < n; i++)
				fprintf(stderr, "tracestream: warning: %s: %s\n", tag[s], lines[i]);
		}
		if (o->verbose) {
			double mb = (double)side[s].res.json_bytes / 1e6;
			fprintf(stderr, "tracestream: %s: %.1f MB of JSON in %.3f s (%.1f MB/s)\n", tag[s],
				mb, side[s].res.seconds,
				side[s].res.seconds > 0 ? mb / side[s].res.seconds : 0.0);
		}
	}
	if (o->verbose) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "tracestream: compare: peak RSS %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
	}
	if (code == TS_EXIT_OK && o->fail_if_slower >= 0 && c->cmp_total[0] > 0) {
		double pct = 100.0 * (c->cmp_total[1] - c->cmp_total[0]) / c->cmp_total[0];
		if (pct > o->fail_if_slower) {
			fprintf(stderr, "tracestream: compare: B's %skernel time is %.2f%% above A's "
					"(more than %g%%)%s\n", co.staged ? "stage " : "", pct,
				o->fail_if_slower, c->per_pass ? ", per pass" : "");
			size_t shown = 0;
			for (size_t i = 0; i < c->nops && shown < 5; i++)
				if (c->ops[i].status == TS_CMP_SLOWER) {
					char r[32];
					if (c->ops[i].ratio < 0)
						snprintf(r, sizeof r, "A has none");
					else
						snprintf(r, sizeof r, "%.2fx", c->ops[i].ratio);
					fprintf(stderr, "tracestream:   %-34s %+.3f us (%s)\n", c->ops[i].name,
						c->ops[i].gap / 1000.0, r);
					shown++;
				}
			code = TS_EXIT_SLOWER;
		}
	}
	if (regex_limits(base->patterns) && code == TS_EXIT_OK)
		code = TS_EXIT_PATTERNS;
	ts_compare_free(c);
	ts_result_free(&side[0].res);
	ts_result_free(&side[1].res);
	return code;
}

/* Errors of the ranks, one line each, like print_error. */
static void print_rank_errors(const ts_multi *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		if (r->status == TS_OK)
			continue;
		const char *what = label_of(r->path);
		if (!r->opened)
			fprintf(stderr, "tracestream: %s: cannot open: %s\n", r->path,
				r->status == TS_ERR_IO ? strerror(r->open_errno) : ts_strerror(r->status));
		else if (r->error_in_compressed)
			fprintf(stderr, "tracestream: %s: byte %" PRIu64 " (compressed): %s\n", what,
				r->error_byte, r->error);
		else
			fprintf(stderr, "tracestream: %s: byte %" PRIu64 "%s: %s\n", what, r->error_byte,
				r->gzip ? " (decompressed)" : "", r->error);
	}
}

/* Write the saved partial of res (standing for ranks) to path, whole or
 * not at all. */
static bool save_state(const char *path, const ts_result *res, const ts_rank_summary *ranks,
		       size_t nranks)
{
	ts_wbuf w = { 0 };
	ts_status st = ts_partial_save(res, ranks, nranks, &w);
	ts_outfile of;
	bool ok = st == TS_OK;
	if (!ok) {
		fprintf(stderr, "tracestream: --save-state: %s\n", ts_strerror(st));
	} else if (!ts_outfile_open(&of, path)) {
		fprintf(stderr, "tracestream: --save-state: %s\n", of.err);
		ok = false;
	} else {
		bool wrote = fwrite(w.p, 1, w.n, of.f) == w.n;
		if (!ts_outfile_close(&of, wrote)) {
			fprintf(stderr, "tracestream: --save-state: %s\n", of.err);
			ok = false;
		}
	}
	ts_wbuf_free(&w);
	return ok;
}

/* The report of a job: the merged result with its rank table and skew. */
/* The report of res (one trace, or a job: ro->ranks) in o's format to o's
 * output (written whole or not at all), after the --csv-dir tables. false:
 * a write failed (said on stderr). */
static bool write_report(const options *o, const ts_result *res, const ts_report_opts *ro)
{
	if (o->csv_dir && !write_csv_dir(o->csv_dir, res, ro))
		return false;
	ts_outfile of;
	bool named = o->format == FMT_XLSX;
	if (!(named ? ts_outfile_open_named(&of, o->output) : ts_outfile_open(&of, o->output))) {
		fprintf(stderr, "tracestream: %s\n", of.err);
		return false;
	}
	if (named && of.f != stdout) {
		fclose(of.f);   /* the library writes the file by its name */
		of.f = NULL;
	}
	int wr = o->format == FMT_JSON   ? ts_report_json(of.f, res, ro)
		 : o->format == FMT_CSV  ? ts_report_csv(of.f, res, ro, o->table)
		 : o->format == FMT_XLSX ? ts_report_xlsx(of.tmp, res, ro)
		 : o->format == FMT_HTML ? ts_report_html(of.f, res, ro)
					 : ts_report_text(of.f, res, ro);
	if (!ts_outfile_close(&of, wr == 0)) {
		fprintf(stderr, "tracestream: %s\n", of.err);
		return false;
	}
	return true;
}

static int report_job(const options *o, ts_multi *m)
{
	ts_report_opts ro = { .top = o->top, .width = text_width(o), .full_names = o->full_names,
			      .filter_stage = o->stage > 0,
			      .stage = o->stage > 0 ? (ts_pstage)(o->stage - 1) : TS_PSTAGE_UNKNOWN,
			      .ranks = m };
	int code = write_report(o, &m->job, &ro) ? TS_EXIT_OK : TS_EXIT_USAGE_IO;
	if (o->save_state && !save_state(o->save_state, &m->job, m->ranks, m->n))
		code = TS_EXIT_USAGE_IO;
	if (!o->quiet) {
		char lines[16][TS_WARN_LEN];
		size_t n = ts_report_warnings(&m->job, lines, 16);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "tracestream: warning: %s\n", lines[i]);
	}
	return code;
}

/* The worst rank decides: unreadable (2) over bad trace (1). */
static int ranks_exit(const ts_multi *m, int code)
{
	for (size_t i = 0; i < m->n && code != TS_EXIT_USAGE_IO; i++) {
		int c = ts_exit_code(m->ranks[i].status);
		if (c > code)
			code = c;
	}
	return code;
}

/* Several traces, the ranks of one job: a pipeline each, -j at a time. */
static int run_multi(const options *o, const ts_pipeline_opts *po)
{
	char **paths;
	size_t n;
	char err[600];
	if (!ts_multi_paths(o->args, (size_t)o->nargs, &paths, &n, err, sizeof err)) {
		fprintf(stderr, "tracestream: %s\n", err);
		return TS_EXIT_USAGE_IO;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && isatty(STDIN_FILENO)) {
			fprintf(stderr, "tracestream: refusing to read a trace from a terminal\n");
			ts_multi_paths_free(paths, n);
			return TS_EXIT_USAGE_IO;
		}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = o->jobs > 0 ? o->jobs : cores > 0 ? (int)cores : 1;
	char label[64];
	snprintf(label, sizeof label, "%zu traces", n);
	ts_multi m;
	ts_status st = ts_multi_run(paths, n, po, jobs, label, &m);
	int code = TS_EXIT_OK;
	if (st != TS_OK) {
		fprintf(stderr, "tracestream: %s\n", ts_strerror(st));
		code = TS_EXIT_USAGE_IO;
	} else {
		code = report_job(o, &m);
		print_rank_errors(&m);
		code = ranks_exit(&m, code);
	}
	ts_multi_free(&m);
	ts_multi_paths_free(paths, n);
	return code;
}

/* tracestream merge PART...: saved partials into one report. */
static int run_merge(const options *o, const ts_pipeline_opts *po)
{
	ts_multi m;
	memset(&m, 0, sizeof m);
	char label[64];
	snprintf(label, sizeof label, "%d partial%s", o->nargs - 1, o->nargs == 2 ? "" : "s");
	if (ts_result_empty(po, label, &m.job) != TS_OK) {
		fprintf(stderr, "tracestream: merge: out of memory\n");
		return TS_EXIT_USAGE_IO;
	}
	ts_partial_ranks pr = { 0 };
	int code = TS_EXIT_OK;
	for (int i = 1; i < o->nargs && code == TS_EXIT_OK; i++) {
		const char *path = o->args[i];
		unsigned char *p;
		size_t n;
		char err[400];
		uint64_t at = 0;
		ts_status st = ts_partial_read_file(path, &p, &n, err, sizeof err);
		if (st != TS_OK) {
			fprintf(stderr, "tracestream: %s: %s\n", path, err);
			code = TS_EXIT_USAGE_IO;
			break;
		}
		st = ts_partial_merge(&m.job, p, n, &pr, 0, err, sizeof err, &at);
		free(p);
		if (st != TS_OK) {
			fprintf(stderr, "tracestream: %s: byte %" PRIu64 ": bad saved partial: %s\n", path,
				at, err);
			code = st == TS_ERR_PARTIAL ? TS_EXIT_TRACE : TS_EXIT_USAGE_IO;
		}
	}
	m.ranks = pr.r;
	m.n = pr.n;
	for (size_t i = 0; i < m.n; i++)
		m.ranks[i].order = (int64_t)i;
	if (code == TS_EXIT_OK) {
		ts_result_settle(&m.job, po);
		if (ts_multi_finish(&m) != TS_OK) {
			fprintf(stderr, "tracestream: merge: out of memory\n");
			code = TS_EXIT_USAGE_IO;
		} else {
			code = report_job(o, &m);
			code = ranks_exit(&m, code);
		}
	}
	ts_multi_free(&m);
	return code;
}

static int run_main(const options *o_, ts_pipeline_opts *pop, const ts_capmap *captures_b,
		    ts_patterns *patterns);

int main(int argc, char **argv)
{
	options o;
	parse_options(argc, argv, &o);
	/* A closed pipe must be an error we report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	if (!o.path)
		return run_patterns(&o);

	if (!o.multi && !o.merge && (strcmp(o.path, "-") == 0 || (o.path_b && strcmp(o.path_b, "-") == 0)) &&
	    isatty(STDIN_FILENO)) {
		fprintf(stderr, "tracestream: refusing to read a trace from a terminal\n"
				"hint: pipe a trace in (zcat trace.json.gz | tracestream -) or name a file\n");
		return TS_EXIT_USAGE_IO;
	}

	ts_status pst;
	ts_patterns *patterns = load_patterns(o.pattern_dirs, o.npattern_dirs, &pst);
	if (!patterns)
		return pst == TS_ERR_IO ? TS_EXIT_USAGE_IO : TS_EXIT_PATTERNS;
	if (o.model && !ts_patterns_find_family(patterns, o.model)) {
		fprintf(stderr, "tracestream: --model: unknown model family '%s'; known:", o.model);
		for (size_t i = 0; i < ts_patterns_nfamilies(patterns); i++)
			fprintf(stderr, " %s", ts_patterns_family(patterns, i)->name);
		fprintf(stderr, "\nhint: tracestream patterns list\n");
		ts_patterns_free(patterns);
		return TS_EXIT_USAGE_IO;
	}
	if (o.gpu && !ts_gpu_named(patterns, o.gpu)) {
		fprintf(stderr, "tracestream: --device: unknown device '%s'; known:", o.gpu);
		for (size_t i = 0; i < ts_patterns_ngpus(patterns); i++)
			fprintf(stderr, " '%s'", ts_patterns_gpu(patterns, i)->name);
		fprintf(stderr, "\nhint: the devices: table is patterns/devices.yaml\n");
		ts_patterns_free(patterns);
		return TS_EXIT_USAGE_IO;
	}
	ts_pipeline_opts po = pipeline_opts(&o, patterns);
	ts_capmap *captures = NULL, *captures_b = NULL;
	bool capture_bad = false, capture_b_bad = false;
	if (o.ncaptures && !o.merge) {
		captures = read_captures(&o, "--capture", o.captures, o.ncaptures, &po, &capture_bad);
		if (!captures) {
			ts_patterns_free(patterns);
			return TS_EXIT_USAGE_IO;
		}
		po.captures = captures;
	}
	if (o.ncaptures_b) {
		captures_b = read_captures(&o, "--capture-b", o.captures_b, o.ncaptures_b, &po,
					   &capture_b_bad);
		if (!captures_b) {
			ts_capmap_free(captures);
			ts_patterns_free(patterns);
			return TS_EXIT_USAGE_IO;
		}
		capture_bad |= capture_b_bad;
	}
	int rc = run_main(&o, &po, captures_b, patterns);
	ts_capmap_free(captures);
	ts_capmap_free(captures_b);
	if (capture_bad && rc == TS_EXIT_OK)
		rc = TS_EXIT_TRACE;
	return rc;
}

/* The command after the tables and captures are read. */
static int run_main(const options *o_, ts_pipeline_opts *pop, const ts_capmap *captures_b,
		    ts_patterns *patterns)
{
	options o = *o_;
	ts_pipeline_opts po = *pop;
	if (o.merge) {
		int rc = run_merge(&o, &po);
		ts_patterns_free(patterns);
		return rc;
	}
	if (o.multi) {
		int rc = run_multi(&o, &po);
		if (regex_limits(patterns) && rc == TS_EXIT_OK)
			rc = TS_EXIT_PATTERNS;
		ts_patterns_free(patterns);
		return rc;
	}
	if (o.compare) {
		int rc = run_compare(&o, &po, captures_b);
		ts_patterns_free(patterns);
		free(o.names[0]);
		return rc;
	}
	if (want_progress(&o))
		po.progress = ts_progress_new(stderr, -1);
	ts_result res;
	ts_status st = ts_pipeline_run(o.path, &po, &res);
	ts_progress_free(po.progress);

	if (!res.opened || !res.agg) {
		print_error(&res, NULL);
		ts_result_free(&res);
		ts_patterns_free(patterns);
		return ts_exit_code(st);
	}

	ts_report_opts ro = { .top = o.top, .width = text_width(&o),
			      .full_names = o.full_names, .show_layers = o.show_layers,
			      .debug_layers = o.debug, .filter_stage = o.stage > 0,
			      .stage = o.stage > 0 ? (ts_pstage)(o.stage - 1) : TS_PSTAGE_UNKNOWN,
			      .verify_ops = o.verify_ops, .ops_only = o.ops_command,
			      .brief = o.brief };
	bool written = write_report(&o, &res, &ro);
	if (written && o.save_state) {
		ts_rank_summary sum;
		written = ts_rank_summarize(&res, 0, &sum) == TS_OK &&
			  save_state(o.save_state, &res, &sum, 1);
		ts_rank_summary_free(&sum);
	}
	if (!written) {
		ts_result_free(&res);
		ts_patterns_free(patterns);
		return TS_EXIT_USAGE_IO;
	}
	if (st != TS_OK)
		print_error(&res, NULL);
	if (!o.quiet) {
		char lines[16][TS_WARN_LEN];
		size_t n = ts_report_warnings(&res, lines, 16);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "tracestream: warning: %s\n", lines[i]);
	}
	if (o.verbose)
		print_verbose(&res);
	int code = ts_exit_code(st);
	if (regex_limits(patterns) && code == TS_EXIT_OK)
		code = TS_EXIT_PATTERNS;
	if (code == TS_EXIT_OK && o.verify_ops) {
		ts_opcov cov[TS_MAX_OPCOV];
		int missing;
		ts_kview v = ts_report_view(&res, &ro);
		int n = ts_kview_coverage(&res, &v, cov, &missing);
		if (n < 0 || missing) {
			fprintf(stderr, "tracestream: --verify-ops: %s\n", n < 0
				? "no model family detected; name one with --model"
				: "a required operator is missing (see OPERATOR COVERAGE)");
			code = TS_EXIT_VERIFY;
		}
	}
	ts_result_free(&res);
	ts_patterns_free(patterns);
	return code;
}
