/*
 * report.c - the reporters' front: a finished ts_result to the format
 * asked for (text, JSON, CSV, HTML, XLSX), and the warnings after it (see
 * report.h).
 */
#include "report/report.h"

#include <stdbool.h>
#include <string.h>

ts_kview ts_report_view(const ts_result *res, const ts_report_opts *o)
{
	return ts_kview_of(res, o && o->filter_stage, o ? o->stage : TS_PSTAGE_UNKNOWN);
}

size_t ts_utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* the second byte's range: no overlong form, surrogate or past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return need;
}

const ts_devprop *ts_report_devprop(const ts_result *res)
{
	return ts_result_devprop(res);
}
