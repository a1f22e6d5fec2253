#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool fail(ts_outfile *o, const char *what, int err)
{
	snprintf(o->err, sizeof o->err, "%s: %s: %s", o->path ? o->path : "<stdout>", what,
		 strerror(err));
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

bool ts_outfile_close(ts_outfile *o, bool ok)
{
	int e = errno;
	if (!o->tmp) {
		if (fflush(stdout) != 0 || ferror(stdout) || !ok)
			return fail(o, "write error", errno ? errno : e ? e : EIO);
		return true;
	}
	bool good = ok && fflush(o->f) == 0 && !ferror(o->f);
	if (!good)
		e = errno ? errno : e ? e : EIO;
	if (good && fsync(fileno(o->f)) != 0 && errno != EINVAL) {
		good = false;
		e = errno;
	}
	if (fclose(o->f) != 0 && good) {
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
