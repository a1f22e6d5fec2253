/*
 * outfile.c - report files that appear whole or not at all: written beside
 * their name and renamed into place (see outfile.h).
 */
#include "report/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool fail(ts_outfile *o, const char *what, int err)
{
	snprintf(o->err_file, sizeof o->err_file, "%s", o->path ? o->path : "<stdout>");
	ts_error_set(&o->err, TS_ERR_IO, "%s: %s", what, strerror(err));
	return false;
}

bool ts_outfile_open(ts_outfile *o, const char *path)
{
	*o = (ts_outfile){ .f = stdout };
	if (!path || strcmp(path, "-") == 0)
		return true;
	o->path = path;
	/* the temporary file sits in the same directory, so rename is atomic */
	size_t n = strlen(path);
	o->tmp = malloc(n + 16);
	if (!o->tmp)
		return fail(o, "cannot write", ENOMEM);
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	snprintf(o->tmp, n + 16, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, "cannot write", e);
	}
	/* what a plain create would give, not mkstemp's 0600 */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, "cannot write", e);
	}
	return true;
}

bool ts_outfile_open_named(ts_outfile *o, const char *path)
{
	if (path && strcmp(path, "-") != 0)
		return ts_outfile_open(o, path);
	*o = (ts_outfile){ .f = stdout, .copy_out = true };
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t n = strlen(dir) + 32;
	o->tmp = malloc(n);
	if (!o->tmp)
		return fail(o, "cannot write", ENOMEM);
	snprintf(o->tmp, n, "%s/tracestream.XXXXXX", dir);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		snprintf(o->err_file, sizeof o->err_file, "%s", o->tmp);
		ts_error_set(&o->err, TS_ERR_IO, "cannot make a temporary file: %s", strerror(e));
		free(o->tmp);
		o->tmp = NULL;
		return false;
	}
	close(fd);
	return true;
}

/* The temporary file's bytes to standard output. */
static bool copy_out(ts_outfile *o)
{
	FILE *in = fopen(o->tmp, "rb");
	if (!in)
		return fail(o, "cannot read the temporary file", errno);
	char buf[65536];
	size_t n;
	bool good = true;
	while (good && (n = fread(buf, 1, sizeof buf, in)) > 0)
		good = fwrite(buf, 1, n, stdout) == n;
	good = good && !ferror(in);
	fclose(in);
	if (!good || fflush(stdout) != 0 || ferror(stdout))
		return fail(o, "write error", errno ? errno : EIO);
	return true;
}

bool ts_outfile_close(ts_outfile *o, bool ok)
{
	int e = errno;
	if (o->copy_out) {
		bool good = ok ? copy_out(o) : fail(o, "write error", e ? e : EIO);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return good;
	}
	if (!o->tmp) {
		if (fflush(stdout) != 0 || ferror(stdout) || !ok)
			return fail(o, "write error", errno ? errno : e ? e : EIO);
		return true;
	}
	bool good = ok && (!o->f || (fflush(o->f) == 0 && !ferror(o->f)));
	if (!good)
		e = errno ? errno : e ? e : EIO;
	if (o->f && fclose(o->f) != 0 && good) {
		good = false;
		e = errno;
	}
	o->f = NULL;
	if (good && rename(o->tmp, o->path) != 0) {
		good = false;
		e = errno;
	}
	if (!good)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return good ? true : fail(o, "cannot write", e);
}

void ts_outfile_perror(const ts_outfile *o, const char *ctx)
{
	char what[600];
	snprintf(what, sizeof what, "%s%s%s", ctx ? ctx : "", ctx ? ": " : "", o->err_file);
	ts_error_print(stderr, what, false, false, &o->err);
}
