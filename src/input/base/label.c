/*
 * label.c - how a report names its input (label.h).
 */
#include "input/base/label.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

const char *ts_path_label(const char *path, bool base)
{
	if (strcmp(path, "-") == 0)
		return "<stdin>";
	const char *s = base ? strrchr(path, '/') : NULL;
	return s && s[1] ? s + 1 : path;
}

const char *ts_path_not_regular(const char *path)
{
	struct stat sb, lb;
	if (stat(path, &sb) != 0) {
		bool link = lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode);
		if (link && errno == ELOOP)
			return "a symbolic link loop";
		if (link && errno == ENOENT)
			return "a symbolic link to nothing";
		return errno == EACCES ? "not readable (permission denied)" : "not there any more";
	}
	if (S_ISREG(sb.st_mode))
		return NULL;
	return S_ISFIFO(sb.st_mode)  ? "a FIFO (named pipe)"
	       : S_ISDIR(sb.st_mode) ? "a directory"
	       : S_ISSOCK(sb.st_mode) ? "a socket"
	       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
							   : "no regular file";
}
