/*
 * replay.c - main() for a fuzz target without libFuzzer: runs every file
 * given (directories: every file in them, sorted) through
 * LLVMFuzzerTestOneInput once, and prints how many. A crash or a sanitizer
 * report ends the run with the sanitizer's exit status; the file being run
 * is printed first when FUZZ_VERBOSE is set.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path, const char *label)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			unsigned char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s: %s (%zu bytes)\n", label, path, n);
	/* an exact-size copy, so that ASan sees reads past the end */
	unsigned char *exact = malloc(n ? n : 1);
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	size_t runs = 0;
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) != 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(sb.st_mode)) {
			bad |= run_file(argv[i], argv[0]) != 0;
			runs++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		if (!d) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				names = realloc(names, cap * sizeof *names);
			}
			size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
			names[n] = malloc(len);
			snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
		}
		closedir(d);
		qsort(names, n, sizeof *names, cmp_str);
		for (size_t k = 0; k < n; k++) {
			if (stat(names[k], &sb) == 0 && S_ISREG(sb.st_mode)) {
				bad |= run_file(names[k], argv[0]) != 0;
				runs++;
			}
			free(names[k]);
		}
		free(names);
	}
	printf("%s: %zu inputs replayed\n", argv[0], runs);
	return bad;
}
