/*
 * outfile.c - report files that appear whole or not at all: a regular file
 * is written beside its name and renamed into place; a device or a FIFO is
 * written where it is (see outfile.h).
 */
#include "report/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed before a name is called a loop (Linux's own limit). */
#define LINKS_MAX 40

static bool fail(ts_outfile *o, const char *what, int err)
{
	if (!o->path && strcmp(what, "cannot write") == 0)
		what = "write error";   /* standard output was never opened */
	snprintf(o->err_file, sizeof o->err_file, "%s", o->path ? o->path : "<stdout>");
	ts_error_set(&o->err, TS_ERR_IO, "%s: %s", what, strerror(err));
	return false;
}

/* path with every symbolic link at its end followed, even to a name that
 * does not exist yet (a dangling link: the report creates its target).
 * NULL with errno set. */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur && hops <= LINKS_MAX; hops++) {
		struct stat ls;
		if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode))
			return cur;   /* not a link (or not there): this is the name */
		char to[PATH_MAX];
		ssize_t k = readlink(cur, to, sizeof to - 1);
		if (k < 0) {
			free(cur);
			return NULL;
		}
		to[k] = '\0';
		/* a relative link is relative to the folder the link is in */
		const char *slash = strrchr(cur, '/');
		size_t dir = to[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
		char *next = malloc(dir + (size_t)k + 1);
		if (next) {
			memcpy(next, cur, dir);
			memcpy(next + dir, to, (size_t)k + 1);
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* A temporary file beside final (so that rename is atomic), with the mode
 * (and, where allowed, the owner) of the file it replaces, or what a plain
 * create would give. */
static bool open_beside(ts_outfile *o, const struct stat *old)
{
	size_t n = strlen(o->final);
	o->tmp = malloc(n + 16);
	if (!o->tmp)
		return fail(o, "cannot write", ENOMEM);
	const char *slash = strrchr(o->final, '/');
	size_t dir = slash ? (size_t)(slash - o->final) + 1 : 0;
	snprintf(o->tmp, n + 16, "%.*s.%s.XXXXXX", (int)dir, o->final, o->final + dir);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, "cannot write", e);
	}
	if (old) {
		(void)fchmod(fd, old->st_mode & 07777);
		if (geteuid() == 0)
			(void)fchown(fd, old->st_uid, old->st_gid);
	} else {
		mode_t mask = umask(0);
		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
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

/* A device, FIFO or socket, opened for writing where it is. */
static bool open_in_place(ts_outfile *o)
{
	int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return fail(o, "cannot write", errno);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		return fail(o, "cannot write", e);
	}
	o->in_place = true;
	return true;
}

/* After a failed open: false, the final name let go. */
static bool forget_final(ts_outfile *o)
{
	free(o->final);
	o->final = NULL;
	return false;
}

/* Is st the file standard output already writes to? */
static bool is_stdout(const struct stat *st)
{
	struct stat so;
	return fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st->st_dev && so.st_ino == st->st_ino;
}

bool ts_outfile_open(ts_outfile *o, const char *path)
{
	*o = (ts_outfile){ .f = stdout };
	if (!path || strcmp(path, "-") == 0)
		return true;
	o->path = path;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (is_stdout(&st))
			return true;
		if (S_ISDIR(st.st_mode))
			return fail(o, "cannot write", EISDIR);
		if (!S_ISREG(st.st_mode))
			return open_in_place(o);
		if (access(path, W_OK) != 0 && errno == EACCES)
			return fail(o, "cannot write", EACCES);
		o->final = realpath(path, NULL);
		if (!o->final)
			return fail(o, "cannot write", errno);
		return open_beside(o, &st) || forget_final(o);
	}
	if (errno != ENOENT)
		return fail(o, "cannot write", errno);
	o->final = follow_links(path);   /* a new file, or a dangling link's */
	if (!o->final)
		return fail(o, "cannot write", errno);
	return open_beside(o, NULL) || forget_final(o);
}

/* A temporary file in TMPDIR for a named writer whose bytes go to dest. */
static bool open_named_tmp(ts_outfile *o, FILE *dest)
{
	o->dest = dest;
	o->f = NULL;
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

bool ts_outfile_open_named(ts_outfile *o, const char *path)
{
	if (!ts_outfile_open(o, path))
		return false;
	if (o->f == stdout || o->in_place) {
		FILE *dest = o->f;
		o->f = NULL;
		if (open_named_tmp(o, dest))
			return true;
		if (dest != stdout)
			fclose(dest);
		return false;
	}
	fclose(o->f);   /* the writer opens the temporary file by its name */
	o->f = NULL;
	return true;
}

/* The temporary file's bytes to o->dest. */
static bool copy_out(ts_outfile *o)
{
	FILE *in = fopen(o->tmp, "rb");
	if (!in)
		return fail(o, "cannot read the temporary file", errno);
	char buf[65536];
	size_t n;
	bool good = true;
	errno = 0;
	while (good && (n = fread(buf, 1, sizeof buf, in)) > 0)
		good = fwrite(buf, 1, n, o->dest) == n;
	good = good && !ferror(in);
	fclose(in);
	if (!good || fflush(o->dest) != 0 || ferror(o->dest))
		return fail(o, "cannot write", errno ? errno : EIO);
	return true;
}

/* Flush and close a stream that is the target itself (standard output is
 * flushed, not closed). */
static bool finish_stream(ts_outfile *o, FILE *f, bool ok, int e)
{
	bool good = ok && fflush(f) == 0 && !ferror(f);
	if (!good)
		e = errno ? errno : e ? e : EIO;
	if (f != stdout && fclose(f) != 0 && good) {
		good = false;
		e = errno;
	}
	return good ? true : fail(o, "cannot write", e ? e : EIO);
}

/* A named writer's file to its stream, then removed. */
static bool finish_copy(ts_outfile *o, bool ok, int e)
{
	bool good = ok ? copy_out(o) : fail(o, "cannot write", e ? e : EIO);
	if (o->dest != stdout && fclose(o->dest) != 0 && good)
		good = fail(o, "cannot write", errno);
	o->dest = NULL;
	unlink(o->tmp);
	return good;
}

/* The temporary file renamed over the final name. */
/* The temporary file finished, not yet in place: flushed and closed (or
 * removed, false, with the reason). */
static bool finish_held(ts_outfile *o, bool ok, int e)
{
	bool good = ok && (!o->f || (fflush(o->f) == 0 && !ferror(o->f)));
	if (!good)
		e = errno ? errno : e ? e : EIO;
	if (o->f && fclose(o->f) != 0 && good) {
		good = false;
		e = errno;
	}
	o->f = NULL;
	if (good)
		return true;
	ts_outfile_discard(o);
	return fail(o, "cannot write", e);
}

static bool finish_rename(ts_outfile *o, bool ok, int e)
{
	return finish_held(o, ok, e) && ts_outfile_commit(o);
}

bool ts_outfile_close_held(ts_outfile *o, bool ok)
{
	if (o->dest || !o->tmp)
		return ts_outfile_close(o, ok);   /* written in place: nothing held */
	return finish_held(o, ok, errno);
}

bool ts_outfile_commit(ts_outfile *o)
{
	bool good = true;
	if (o->tmp && o->final && rename(o->tmp, o->final) != 0) {
		int e = errno;
		unlink(o->tmp);
		good = fail(o, "cannot write", e);
	}
	free(o->tmp);
	o->tmp = NULL;
	free(o->final);
	o->final = NULL;
	return good;
}

void ts_outfile_discard(ts_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->final);
	o->final = NULL;
}

bool ts_outfile_close(ts_outfile *o, bool ok)
{
	int e = errno;
	bool good;
	if (o->dest)
		good = finish_copy(o, ok, e);
	else if (o->tmp)
		good = finish_rename(o, ok, e);
	else
		good = finish_stream(o, o->f, ok, e);
	o->f = NULL;
	free(o->tmp);
	o->tmp = NULL;
	free(o->final);
	o->final = NULL;
	return good;
}

void ts_outfile_perror(const ts_outfile *o, const char *ctx)
{
	char what[600];
	snprintf(what, sizeof what, "%s%s%s", ctx ? ctx : "", ctx ? ": " : "", o->err_file);
	ts_error_print(stderr, what, false, false, &o->err);
}
