/*
 * magic.c - what an input's first bytes say it is, where they are no
 * JSON (magic.h).
 */
#include "input/magic.h"

#include <string.h>

const char *ts_magic_kind(const unsigned char *head, size_t n)
{
	static const struct { const char *magic; size_t n; const char *what; } kinds[] = {
		{ "\x28\xb5\x2f\xfd", 4, "zstd-compressed data (magic 28 b5 2f fd), not gzip or "
					    "JSON: decompress it first (zstd -d)" },
		{ "\xfd\x37\x7a\x58\x5a\x00", 6, "xz-compressed data (magic fd 37 7a 58 5a 00): "
						   "decompress it first (xz -d)" },
		{ "BZh", 3, "bzip2-compressed data (magic 'BZh'): decompress it first (bzip2 -d)" },
		{ "PK\x03\x04", 4, "a zip archive (magic 'PK' 03 04): unzip it first" },
		{ "\x37\x7a\xbc\xaf", 4, "a 7-Zip archive (magic 37 7a bc af): extract it first" },
		{ "\xef\xbb\xbf", 3, "a UTF-8 byte order mark (ef bb bf) before the JSON: save the "
				     "trace without it" },
		{ "\xff\xfe", 2, "UTF-16 text (byte order mark ff fe): convert it to UTF-8 (iconv "
				"-f UTF-16 -t UTF-8)" },
		{ "\xfe\xff", 2, "UTF-16 text (byte order mark fe ff): convert it to UTF-8 (iconv "
				"-f UTF-16 -t UTF-8)" },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (n >= kinds[i].n && memcmp(head, kinds[i].magic, kinds[i].n) == 0)
			return kinds[i].what;
	if (n >= 2 && (head[1] == 0 || head[0] == 0))
		return "UTF-16 text (every other byte 00): convert it to UTF-8 (iconv -f UTF-16 -t "
		       "UTF-8)";
	if (n >= 2 && head[0] == '[' &&
	    ((head[1] >= 'a' && head[1] <= 'z') || (head[1] >= 'A' && head[1] <= 'Z')))
		return "text that begins like a TOML or INI section ('[' and a name), not JSON";
	return NULL;
}

