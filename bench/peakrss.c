/*
 * peakrss: run a command and record its wall time and peak resident set.
 *
 *   peakrss OUTFILE -- cmd [args...]
 *
 * Writes one line to OUTFILE:  "wall_s 1.234 peak_rss_kb 5120 status 0"
 * and exits with the child's exit status (128+signal if it was killed).
 * Stands in for GNU time, which may not be installed.  Only the direct child
 * is measured (ru_maxrss from wait4), so in a pipeline put peakrss in front
 * of the one stage you want to measure:  gen | peakrss f -- tool -
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(void)
{
    fprintf(stderr, "usage: peakrss OUTFILE -- cmd [args...]\n");
    return 2;
}

/* Exit status the way a shell reports it, so callers can test it. */
static int shell_status(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

static int write_result(const char *path, double wall, long rss_kb, int status)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "peakrss: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "wall_s %.3f peak_rss_kb %ld status %d\n", wall, rss_kb, status);
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[2], "--") != 0)
        return usage();
    const char *out = argv[1];
    char **cmd = argv + 3;

    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        perror("peakrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(cmd[0], cmd);
        fprintf(stderr, "peakrss: %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }

    int status = 0;
    struct rusage ru;
    pid_t got;
    do
        got = wait4(pid, &status, 0, &ru);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
        perror("peakrss: wait4");
        return 2;
    }
    double wall = now_s() - t0;
    int rc = shell_status(status);
    /* ru_maxrss is in kilobytes on Linux */
    if (write_result(out, wall, ru.ru_maxrss, rc) != 0)
        return 2;
    return rc;
}
