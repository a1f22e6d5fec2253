/*
 * options.c - the command line's options and usage text; the only place
 * that knows a flag's spelling.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multi.h"
#include "report/report.h"
#include "report/version.h"


static const char usage_text[] =
	"Usage: tracestream [options] TRACE\n"
	"       tracestream [options] TRACE TRACE... | DIR   (one job, a trace per rank)\n"
	"       tracestream merge [options] PART...   (partials from --save-state)\n"
	"       tracestream ops [options] TRACE\n"
	"       tracestream compare [options] A B\n"
	"       tracestream annotate [options] TRACE -o OUT | TRACE... -o DIR\n"
	"       tracestream patterns list|check [DIR...]|explain 'KERNEL NAME'...\n"
	"       tracestream schema [-o FILE]\n"
	"       tracestream help   (this text)\n"
	"Summarise a PyTorch profiler (Kineto) trace: where the GPU time went.\n"
	"TRACE is a .json or gzip'ed .json file, or - for standard input; several\n"
	"TRACEs (or a directory of them) are the ranks of one job: a rank table and\n"
	"the skew between ranks (text or json).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT     text (default), json, html (one self-contained page\n"
	"                       with charts), md (the first screen and its figures\n"
	"                       in Markdown, each with its JSON field: for agents),\n"
	"                       csv (one table: --table, else the\n"
	"                       kernels; compare's ops) or xlsx (an\n"
	"                       Excel workbook of every table; with -o)\n"
	"  -o, --output FILE    write the report to FILE (whole or not at all)\n"
	"      --table NAME     the table --format csv writes: kernels, types,\n"
	"                       categories, unclassified, ops, workloads, layers,\n"
	"                       passes, stages, memory, collectives, api,\n"
	"                       opportunities, gaps, replays (--capture),\n"
	"                       device_memory, memory_passes, memory_owners\n"
	"                       (profile_memory),\n"
	"                       ranks or skew (several traces), or launches (a\n"
	"                       row per kernel, streamed as read)\n"
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
	"                       complete pass (of --stage) (LIST like 0,1,5-7;\n"
	"                       a text listing)\n"
	"      --pass N             --debug-layers lists pass N instead (its index\n"
	"                       in PASSES, complete or not)\n"
	"      --stage STAGE        only prefill, decode, mixed or unknown kernels,\n"
	"                       passes and layers in every table (default all)\n"
	"      --decode-threshold N GEMM ops with at most N token rows vote decode,\n"
	"                       more vote prefill (default 32)\n"
	"      --join-mem SIZE      memory for each join index (default 64M): kernel ->\n"
	"                       CPU op, about 1.3 to 2.3 bytes per op; launch ->\n"
	"                       Python frame, about 4 to 10 bytes per frame kept\n"
	"                       between the launches and the latest frame;\n"
	"                       entries past it are counted\n"
	"      --sort-mem SIZE      memory for sorting a trace whose events are out of\n"
	"                       time order (default 32M); past it, sorted runs go\n"
	"                       to a temporary file in $TMPDIR\n"
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
	"  annotate TRACE -o OUT  the trace written back (OUT .json, .json.gz or -;\n"
	"                       several traces: each into -o DIR under its name)\n"
	"                       with tracks for Perfetto: a slice per forward pass,\n"
	"                       per layer and per idle gap (launch-bound marked)\n"
	"  compare A B          where B spends more GPU time than A: operation groups\n"
	"                       (fusion-aware), layers, and the kernels of a typical\n"
	"                       layer aligned; both traces are read at once\n"
	"      --names A,B          labels of the two traces (default: the file names)\n"
	"      --threshold-us N     gaps of at most N us are similar (default 1)\n"
	"      --threshold-pct N    gaps of at most N% of A are similar (default 5)\n"
	"      --fail-if-slower PCT exit 5 when B's kernel time (of --stage) is more\n"
	"                       than PCT% above A's\n"
	"  merge PART...        one report from saved partials (--save-state), as if\n"
	"                       their traces were analysed in one run; any grouping\n"
	"  ops TRACE            operator workloads (gemm_n4096_k4096, ...) with calls,\n"
	"                       tokens min/p50/max, kernel time and dtype; CPU ops\n"
	"  patterns list        model families and kernel categories with their rules\n"
	"  patterns check [DIR...]  validate the built-in tables plus each DIR\n"
	"  patterns explain NAME... which rule classifies each kernel name, and how\n"
	"                       (--event gpu_memcpy|gpu_memset for memory operations)\n"
	"  schema               the JSON Schema of the JSON report (-f json; its\n"
	"                       \"schema\" member is the version it describes)\n"
	"  -j, --jobs N         ranks analysed at a time (default: the cores;\n"
	"                       at most 4 a core)\n"
	"  -T, --threads N      threads that parse one trace (default: the cores,\n"
	"                       at most 8, shared among the ranks analysed at a\n"
	"                       time; with N, they share the larger of N and the\n"
	"                       cores); 1 parses in order on one thread\n"
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

void ts_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tracestream: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nhint: tracestream --help\n");
	exit(TS_EXIT_USAGE_IO);
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		ts_usage_error("%s: '%s' is not a number from %ld to %ld", opt, s, lo, hi);
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
		ts_usage_error("%s: '%s' is not a size from %zu bytes to 64G (e.g. 64M)", opt, s, lo);
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
			ts_usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= TS_MAX_LAYERS)
				ts_usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
			p = end;
		}
		for (long i = a; i <= b; i++)
			flags[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			ts_usage_error("--debug-layers: '%s' is not a list like 0,1,5-7", arg);
	}
}

enum {
	OPT_PROGRESS = 256, OPT_NO_PROGRESS, OPT_READ_SIZE, OPT_NO_MMAP, OPT_PIECE_SIZE, OPT_MAX_KERNELS,
	OPT_FULL_NAMES, OPT_EVENT, OPT_SPLIT_HALF, OPT_EXPECT_LAYERS,
	OPT_SHOW_LAYERS, OPT_BRIEF, OPT_DEBUG_LAYERS, OPT_PASS, OPT_STAGE, OPT_JOIN_MEM, OPT_SORT_MEM, OPT_DEVICE, OPT_DECODE_THRESHOLD, OPT_VERIFY_OPS, OPT_SAVE_STATE, OPT_CAPTURE, OPT_CAPTURE_B,
	OPT_NAMES, OPT_THRESHOLD_US, OPT_THRESHOLD_PCT, OPT_FAIL_IF_SLOWER, OPT_TABLE, OPT_CSV_DIR,
};

static double parse_double(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		ts_usage_error("%s: '%s' is not a number from %g to %g", opt, s, lo, hi);
	}
	return v;
}


/* csv writes one table (the kernels, compare's ops, without --table), and
 * --table goes with csv (any command). */
static void check_csv_table(options *o, const char *first)
{
	if (o->format == FMT_CSV && !o->table)
		o->table = first;
	if (o->table && o->format != FMT_CSV)
		ts_usage_error("%s", "--table goes with --format csv");
}

/* The output format's own needs: csv one --table, xlsx a file. */
static void check_formats(options *o)
{
	if (o->table && !ts_tview_known(o->table) && strcmp(o->table, "launches") != 0)
		ts_usage_error("--table: '%s' is not kernels, types, categories, unclassified, "
			    "ops, workloads, layers, passes, stages, memory, collectives, api, "
			    "opportunities, gaps, replays, device_memory, memory_passes, memory_owners, "
			    "ranks, skew or "
			    "launches", o->table);
	if (o->debug && o->format != FMT_TEXT)
		ts_usage_error("%s", "--debug-layers prints a text listing: leave out --format "
			    "(the passes and layers are in the JSON report's passes and layer_table)");
	if (o->debug_pass >= 0 && !o->debug)
		ts_usage_error("%s", "--pass N chooses the pass --debug-layers lists: give --debug-layers too");
	check_csv_table(o, "kernels");
	if (o->format == FMT_XLSX && (!o->output || strcmp(o->output, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		ts_usage_error("%s", "--format xlsx writes a binary workbook: name the file with -o FILE");
}

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
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "piece-size", required_argument, NULL, OPT_PIECE_SIZE },
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
	{ "pass", required_argument, NULL, OPT_PASS },
	{ "stage", required_argument, NULL, OPT_STAGE },
	{ "join-mem", required_argument, NULL, OPT_JOIN_MEM },
	{ "sort-mem", required_argument, NULL, OPT_SORT_MEM },
	{ "decode-threshold", required_argument, NULL, OPT_DECODE_THRESHOLD },
	{ "verify-ops", no_argument, NULL, OPT_VERIFY_OPS },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "threshold-us", required_argument, NULL, OPT_THRESHOLD_US },
	{ "threshold-pct", required_argument, NULL, OPT_THRESHOLD_PCT },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "jobs", required_argument, NULL, 'j' },
	{ "threads", required_argument, NULL, 'T' },
	{ "save-state", required_argument, NULL, OPT_SAVE_STATE },
	{ "capture", required_argument, NULL, OPT_CAPTURE },
	{ "capture-b", required_argument, NULL, OPT_CAPTURE_B },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The options that shape the report (format, tables, layers listed,
 * compare's labels and gates); false for any other. */
static bool report_option(options *o, int c)
{
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
		else if (strcmp(optarg, "md") == 0 || strcmp(optarg, "markdown") == 0)
			o->format = FMT_MD;
		else
			ts_usage_error("--format: '%s' is not text, json, html, md, csv or xlsx", optarg);
		return true;
	case 'o':
		o->output = optarg;
		return true;
	case OPT_TABLE:     /* checked once the command is known */
		o->table = optarg;
		return true;
	case OPT_CSV_DIR:
		o->csv_dir = optarg;
		return true;
	case 'n':
		o->top = (int)parse_long("--top", optarg, 0, INT_MAX);
		return true;
	case 'w':
		o->width = (int)parse_long("--width", optarg, 0, 100000);
		return true;
	case OPT_PROGRESS:
		o->progress = 1;
		return true;
	case OPT_NO_PROGRESS:
		o->progress = 0;
		return true;
	case OPT_FULL_NAMES:
		o->full_names = 1;
		return true;
	case OPT_SHOW_LAYERS:
		o->show_layers = 1;
		return true;
	case OPT_BRIEF:
		o->brief = 1;
		return true;
	case OPT_DEBUG_LAYERS:
		parse_layer_list(optarg, o->debug_layers);
		o->debug = 1;
		return true;
	case OPT_PASS:
		o->debug_pass = parse_long("--pass", optarg, 0, LONG_MAX);
		return true;
	case OPT_STAGE:
		o->stage = 0;
		for (int st = 0; st < TS_PSTAGE_COUNT; st++)
			if (strcmp(optarg, ts_pstage_name((ts_pstage)st)) == 0)
				o->stage = st + 1;
		if (o->stage == 0 && strcmp(optarg, "all") != 0)
			ts_usage_error("--stage: '%s' is not prefill, decode, mixed, unknown or all",
				    optarg);
		return true;
	case OPT_VERIFY_OPS:
		o->verify_ops = 1;
		return true;
	case OPT_NAMES: {
		const char *comma = strchr(optarg, ',');
		if (!comma || comma == optarg || !comma[1] || strchr(comma + 1, ','))
			ts_usage_error("--names: '%s' is not two labels like NAME_A,NAME_B", optarg);
		free(o->names[0]);
		o->names[0] = strdup(optarg);
		if (!o->names[0])
			ts_usage_error("%s", "out of memory");
		o->names[0][comma - optarg] = '\0';
		o->names[1] = o->names[0] + (comma - optarg) + 1;
		return true;
	}
	case OPT_THRESHOLD_US:
		o->threshold_us = parse_double("--threshold-us", optarg, 0, 1e12);
		return true;
	case OPT_THRESHOLD_PCT:
		o->threshold_pct = parse_double("--threshold-pct", optarg, 0, 1e6);
		return true;
	case OPT_FAIL_IF_SLOWER:
		o->fail_if_slower = parse_double("--fail-if-slower", optarg, 0, 1e6);
		return true;
	default:
		return false;
	}
}

/* Help or version on stdout, then the exit: 0, or 2 with the reason
 * where stdout could not take it (a full disk, /dev/full). */
static void print_and_exit(const char *text)
{
	fputs(text, stdout);
	if (fflush(stdout) == 0 && !ferror(stdout))
		exit(TS_EXIT_OK);
	fprintf(stderr, "tracestream: <stdout>: write error: %s\n", strerror(errno));
	exit(TS_EXIT_USAGE_IO);
}

/* The options of the run (what is read and how, the tables, the model,
 * the joins) and the program's own (-v, -q, -h, -V); a usage error for an
 * unknown one. */
static void run_option(options *o, int c, char **argv)
{
	switch (c) {
	case 'j':
		o->jobs = (int)parse_long("--jobs", optarg, 1, 1024);
		break;
	case 'T':
		o->threads = (int)parse_long("--threads", optarg, 1, 256);
		break;
	case OPT_SAVE_STATE:
		o->save_state = optarg;
		break;
	case OPT_CAPTURE:
		if (o->ncaptures == sizeof o->captures / sizeof *o->captures)
			ts_usage_error("--capture: at most 64 ('%s'); name a directory", optarg);
		o->captures[o->ncaptures++] = optarg;
		break;
	case OPT_CAPTURE_B:
		if (o->ncaptures_b == sizeof o->captures_b / sizeof *o->captures_b)
			ts_usage_error("--capture-b: at most 64 ('%s'); name a directory", optarg);
		o->captures_b[o->ncaptures_b++] = optarg;
		break;
	case OPT_PIECE_SIZE:
		o->piece_size = (size_t)parse_long("--piece-size", optarg, 16, 64 << 20);
		break;
	case OPT_READ_SIZE:
		o->read_size = (size_t)parse_long("--read-size", optarg, 1, 1 << 20);
		break;
	case OPT_NO_MMAP:   /* hidden: the read() path, for tests and the bench */
		o->no_mmap = 1;
		break;
	case OPT_MAX_KERNELS:
		o->limits.max_kernel_names =
			(uint32_t)parse_long("--max-kernels", optarg, 1, 1 << 20);
		break;
	case 'p':
		if (o->npattern_dirs == sizeof o->pattern_dirs / sizeof *o->pattern_dirs)
			ts_usage_error("--patterns: at most 15 directories ('%s')", optarg);
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
	case OPT_DECODE_THRESHOLD:
		o->decode_threshold = parse_long("--decode-threshold", optarg, 1, 1L << 30);
		break;
	case OPT_JOIN_MEM:
		o->join_mem = parse_bytes("--join-mem", optarg, 16);
		break;
	case OPT_SORT_MEM:
		o->sort_mem = parse_bytes("--sort-mem", optarg, 1u << 20);
		break;
	case OPT_DEVICE:
		o->gpu = optarg;
		break;
	case OPT_EXPECT_LAYERS:
		o->expect_layers = parse_long("--expect-layers", optarg, 1, 100000);
		break;
	case 'v':
		o->verbose = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'h':
		print_and_exit(usage_text);
		break;
	case 'V':
		print_and_exit("tracestream " TS_VERSION "\n");
		break;
	case ':':
		ts_usage_error("option '%s' needs a value", argv[optind - 1]);
		break;
	default:
		ts_usage_error("unknown option '%s'", argv[optind - 1]);

	}
}

/* merge PART...: saved partials; the options that read a trace do not
 * apply. */
static void check_merge(options *o)
{
	if (o->nargs < 2)
		ts_usage_error("%s", "merge needs saved partials: tracestream merge PART... "
			    "(made with --save-state)");
	if (o->ncaptures || o->ncaptures_b)
		ts_usage_error("%s", "merge: --capture applies to traces; give it when the partials "
			    "are saved (--save-state)");
	if (o->verify_ops || o->debug || o->show_layers || o->brief)
		ts_usage_error("%s", "merge: --verify-ops, --debug-layers, --show-layers and --brief "
			    "apply to one trace");
	check_formats(o);
	o->path = o->args[1];
}

/* annotate TRACE... -o OUT: the trace read twice, written back. */
static void check_annotate(options *o)
{
	if (o->nargs < 2)
		ts_usage_error("%s", "annotate needs a trace: tracestream annotate TRACE -o OUT "
			    "(several traces, the ranks of a job: -o DIR)");
	for (int i = 1; i < o->nargs; i++)
		if (strcmp(o->args[i], "-") == 0)
			ts_usage_error("%s", "annotate reads its trace twice (once to find the "
				    "passes, once to copy it): give a file, not standard input");
	if (o->nargs > 2 && (!o->output || strcmp(o->output, "-") == 0))
		ts_usage_error("%s", "annotate with several traces writes each into a directory: "
			    "-o DIR");
	if (o->format != FMT_TEXT || o->table || o->csv_dir || o->verify_ops || o->debug ||
	    o->show_layers || o->brief || o->save_state)
		ts_usage_error("%s", "annotate writes the trace back (-o OUT: .json, .json.gz, "
			    "or - for standard output); report options do not apply");
	if (!o->output && isatty(STDOUT_FILENO))
		ts_usage_error("%s", "annotate writes the whole trace back as JSON: name the file "
			    "with -o OUT (.json or .json.gz; -o - prints it here anyway)");
	o->path = o->args[1];
}

/* compare A B: two traces, compare's own tables. */
static void check_compare(options *o)
{
	if (o->nargs != 3)
		ts_usage_error("%s", "compare needs two traces: tracestream compare A B");
	o->path = o->args[1];
	o->path_b = o->args[2];
	if (strcmp(o->path, "-") == 0 && strcmp(o->path_b, "-") == 0)
		ts_usage_error("%s", "compare: only one side can be standard input ('-')");
	if (o->verify_ops || o->debug || o->show_layers || o->save_state)
		ts_usage_error("%s", "compare: --verify-ops, --debug-layers, --show-layers and "
			    "--save-state apply to one trace; run them on each");
	if (o->format == FMT_XLSX || o->format == FMT_MD)
		ts_usage_error("compare: --format %s applies to one trace; compare writes "
			    "text, json, html or csv (--table ops, layers, alignment or "
			    "collectives)", o->format == FMT_MD ? "md" : "xlsx");
	check_csv_table(o, "ops");
	bool known = !o->table;
	for (size_t i = 0; o->table && ts_tview_compare_tables[i]; i++)
		known |= strcmp(o->table, ts_tview_compare_tables[i]) == 0;
	if (!known)
		ts_usage_error("compare: --table '%s': compare's tables are ops, layers, "
			    "alignment and collectives", o->table);
}

/* TRACE (ops TRACE), or several: the ranks of one job. */
static void check_report(options *o)
{
	if (o->names[0] || o->fail_if_slower >= 0 || o->ncaptures_b)
		ts_usage_error("%s", "--names, --fail-if-slower and --capture-b apply to compare only");
	check_formats(o);
	if (o->table && strcmp(o->table, "launches") == 0 && (o->csv_dir || o->save_state))
		ts_usage_error("%s", "--table launches streams the kernels as the trace is read: "
			    "--csv-dir and --save-state do not go with it");
	if (o->nargs == 0)
		ts_usage_error("%s", "no TRACE given (a file, or - for standard input)");
	o->path = o->args[0];
	if (o->nargs > 1 || ts_multi_any_dir(o->args, (size_t)o->nargs)) {
		if (o->mode == MODE_OPS)
			ts_usage_error("%s", "ops reads one TRACE at a time");
		o->mode = MODE_RANKS;
		if (o->table && strcmp(o->table, "launches") == 0)
			ts_usage_error("%s", "--table launches streams one trace's kernels: run it on "
				    "each");
		if (o->verify_ops || o->debug || o->show_layers || o->brief)
			ts_usage_error("%s", "--verify-ops, --debug-layers, --show-layers and --brief "
				    "apply to one trace; run them on each");
	}
}

void ts_options_parse(int argc, char **argv, options *o)
{
	*o = (options){ .format = FMT_TEXT, .top = 20, .width = -1, .debug_pass = -1,
			.progress = -1, .limits = ts_limits_default(),
			.threshold_us = TS_CMP_THRESHOLD_US, .threshold_pct = TS_CMP_THRESHOLD_PCT,
			.fail_if_slower = -1, .mode = MODE_REPORT };
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":f:o:n:w:p:m:j:T:vqhV", longs, NULL)) != -1)
		if (!report_option(o, c))
			run_option(o, c, argv);
	o->args = argv + optind;
	o->nargs = argc - optind;
	const char *cmd = o->nargs > 0 ? o->args[0] : "";
	if (strcmp(cmd, "help") == 0)
		print_and_exit(usage_text);
	if (strcmp(cmd, "patterns") == 0) {
		o->mode = MODE_PATTERNS;   /* its arguments are checked by the command */
		return;
	}
	if (strcmp(cmd, "schema") == 0) {
		o->mode = MODE_SCHEMA;
		if (o->nargs > 1)
			ts_usage_error("%s", "schema takes no argument: tracestream schema [-o FILE]");
		return;
	}
	if (strcmp(cmd, "ops") == 0) {
		o->mode = MODE_OPS;
		o->args++;
		o->nargs--;
		if (o->nargs == 0)
			ts_usage_error("%s", "ops needs a TRACE (a file, or - for standard input)");
		cmd = o->args[0];
	}
	if (strcmp(cmd, "merge") == 0) {
		o->mode = MODE_MERGE;
		check_merge(o);
	} else if (strcmp(cmd, "annotate") == 0) {
		o->mode = MODE_ANNOTATE;
		check_annotate(o);
	} else if (strcmp(cmd, "compare") == 0) {
		o->mode = MODE_COMPARE;
		check_compare(o);
	} else {
		check_report(o);
	}
}
