/*
 * yajl_noop: the throughput baseline for tracestream.
 *
 * Parses a JSON file (or stdin) with yajl and callbacks that do nothing, so
 * the figure is the cost of tokenizing alone: the fastest a yajl-based
 * streaming analyzer could possibly go.  Numbers go through the yajl_number
 * callback so yajl never converts them to integers or doubles.
 *
 *   yajl_noop [--no-utf8-check] [FILE|-]
 *
 * Prints "yajl_noop: bytes N, S s, M MB/s" (MB = 1e6 bytes) to stderr.
 * Exit 0 on success, 1 on a parse error, 2 on usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

enum { CHUNK = 256 * 1024 };

static int cb_null(void *ctx) { (void)ctx; return 1; }
static int cb_bool(void *ctx, int v) { (void)ctx; (void)v; return 1; }
static int cb_str(void *ctx, const unsigned char *s, size_t n)
{
    (void)ctx; (void)s; (void)n;
    return 1;
}
static int cb_num(void *ctx, const char *s, size_t n)
{
    (void)ctx; (void)s; (void)n;
    return 1;
}

/* integer/double callbacks stay NULL: with yajl_number set, yajl hands every
 * number over as text and never converts it */
static const yajl_callbacks noop_callbacks = {
    cb_null, cb_bool, NULL, NULL, cb_num, cb_str,
    cb_null, cb_str, cb_null, cb_null, cb_null,
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report_error(yajl_handle h, const unsigned char *buf, size_t len,
                         uint64_t offset)
{
    unsigned char *msg = yajl_get_error(h, 1, buf, len);
    fprintf(stderr, "yajl_noop: parse error near byte %llu: %s",
            (unsigned long long)offset, (const char *)msg);
    yajl_free_error(h, msg);
}

/* Feeds the whole stream to the parser; returns 0, 1 (parse) or 2 (I/O). */
static int parse_fd(int fd, yajl_handle h, unsigned char *buf, uint64_t *total)
{
    for (;;) {
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            perror("yajl_noop: read");
            return 2;
        }
        if (n == 0)
            break;
        if (yajl_parse(h, buf, (size_t)n) != yajl_status_ok) {
            report_error(h, buf, (size_t)n, *total);
            return 1;
        }
        *total += (uint64_t)n;
    }
    if (yajl_complete_parse(h) != yajl_status_ok) {
        report_error(h, buf, 0, *total);
        return 1;
    }
    return 0;
}

static int open_input(const char *path)
{
    if (strcmp(path, "-") == 0)
        return STDIN_FILENO;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        fprintf(stderr, "yajl_noop: %s: %s\n", path, strerror(errno));
    return fd;
}

int main(int argc, char **argv)
{
    const char *path = "-";
    int check_utf8 = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-utf8-check") == 0)
            check_utf8 = 0;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fprintf(stderr, "usage: yajl_noop [--no-utf8-check] [FILE|-]\n");
            return 0;
        } else
            path = argv[i];
    }
    int fd = open_input(path);
    if (fd < 0)
        return 2;
    unsigned char *buf = malloc(CHUNK);
    yajl_handle h = yajl_alloc(&noop_callbacks, NULL, NULL);
    if (!buf || !h) {
        fprintf(stderr, "yajl_noop: out of memory\n");
        return 2;
    }
    if (!check_utf8)
        yajl_config(h, yajl_dont_validate_strings, 1);

    uint64_t total = 0;
    double t0 = now_s();
    int rc = parse_fd(fd, h, buf, &total);
    double secs = now_s() - t0;

    fprintf(stderr, "yajl_noop: bytes %llu, %.3f s, %.1f MB/s\n",
            (unsigned long long)total, secs,
            secs > 0 ? (double)total / 1e6 / secs : 0.0);
    yajl_free(h);
    free(buf);
    if (fd != STDIN_FILENO)
        close(fd);
    return rc;
}
