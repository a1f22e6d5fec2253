/*
 * main.c - the command line: options, one analysis, one report, exit code.
 *
 * Only this file prints diagnostics and exits. Exit codes (README.md):
 * 0 ok, 1 bad or truncated trace (a partial report is still printed),
 * 2 usage or I/O error (including a failed write to stdout), 3 patterns.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pipeline.h"
#include "report.h"
#include "version.h"

typedef enum { FMT_TEXT, FMT_JSON } out_format;

/* Options are read-only once parsed. */
typedef struct {
	out_format format;
	int top;
	int width;            /* -1: terminal width on a tty, else full names */
	int progress;         /* -1 auto, 0 off, 1 on */
	int verbose;
	int quiet;
	size_t read_size;
	ts_limits limits;
	const char *path;
} options;

static const char usage_text[] =
	"Usage: tracestream [options] TRACE\n"
	"Summarise a PyTorch profiler (Kineto) trace: where the GPU time went.\n"
	"TRACE is a .json or gzip'ed .json file, or - for standard input.\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT     text (default) or json\n"
	"  -n, --top N          kernel rows in the text report (default 20, 0 = all)\n"
	"  -w, --width N        shorten kernel names to fit N columns\n"
	"                       (default: the terminal width; full names on a pipe)\n"
	"      --progress       show a progress line on stderr even when not a terminal\n"
	"      --no-progress    never show the progress line\n"
	"      --max-kernels N  distinct kernel names kept (default 4096; the rest\n"
	"                       are folded into an (other) row)\n"
	"  -v, --verbose        print throughput and peak memory to stderr\n"
	"  -q, --quiet          do not print warnings\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 ok, 1 bad or truncated trace (a partial report is printed),\n"
	"2 usage or I/O error, 3 pattern table error.\n";

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

enum {
	OPT_PROGRESS = 256, OPT_NO_PROGRESS, OPT_READ_SIZE, OPT_MAX_KERNELS,
};

static void parse_options(int argc, char **argv, options *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 'n' },
		{ "width", required_argument, NULL, 'w' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "read-size", required_argument, NULL, OPT_READ_SIZE },
		{ "max-kernels", required_argument, NULL, OPT_MAX_KERNELS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (options){ .format = FMT_TEXT, .top = 20, .width = -1,
			.progress = -1, .limits = ts_limits_default() };
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":f:n:w:vqhV", longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o->format = FMT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FMT_JSON;
			else
				usage_error("--format: '%s' is not text or json", optarg);
			break;
		case 'n':
			o->top = (int)parse_long("--top", optarg, 0, INT_MAX);
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
	if (optind >= argc)
		usage_error("%s", "no TRACE given (a file, or - for standard input)");
	if (optind + 1 < argc)
		usage_error("one TRACE at a time; unexpected '%s'", argv[optind + 1]);
	o->path = argv[optind];
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
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

static void print_error(const ts_result *res)
{
	const char *what = strcmp(res->path, "-") == 0 ? "<stdin>" : res->path;
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

int main(int argc, char **argv)
{
	options o;
	parse_options(argc, argv, &o);
	/* A closed pipe must be an error we report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);

	if (strcmp(o.path, "-") == 0 && isatty(STDIN_FILENO)) {
		fprintf(stderr, "tracestream: refusing to read a trace from a terminal\n"
				"hint: pipe a trace in (zcat trace.json.gz | tracestream -) or name a file\n");
		return TS_EXIT_USAGE_IO;
	}

	ts_pipeline_opts po = { .read_size = o.read_size, .limits = o.limits };
	if (want_progress(&o))
		po.progress = ts_progress_new(stderr, -1);
	ts_result res;
	ts_status st = ts_pipeline_run(o.path, &po, &res);
	ts_progress_free(po.progress);

	if (!res.opened || !res.agg) {
		print_error(&res);
		ts_result_free(&res);
		return ts_exit_code(st);
	}

	ts_report_opts ro = { .top = o.top, .width = text_width(&o) };
	int wr = o.format == FMT_JSON ? ts_report_json(stdout, &res, &ro)
				      : ts_report_text(stdout, &res, &ro);
	if (fflush(stdout) != 0 || wr != 0 || ferror(stdout)) {
		fprintf(stderr, "tracestream: <stdout>: write error: %s\n", strerror(errno));
		ts_result_free(&res);
		return TS_EXIT_USAGE_IO;
	}
	if (st != TS_OK)
		print_error(&res);
	if (!o.quiet) {
		char lines[16][TS_WARN_LEN];
		size_t n = ts_report_warnings(&res, lines, 16);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "tracestream: warning: %s\n", lines[i]);
	}
	if (o.verbose)
		print_verbose(&res);
	ts_result_free(&res);
	return ts_exit_code(st);
}
