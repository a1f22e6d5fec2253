/*
 * patterns_mixers.c - the mixers: entries of the kernel tables: the kinds
 * of a layer's token mixer (softmax attention, latent attention, linear
 * attention, a state-space scan, ...), checked as they load, and the
 * layer types they name (patterns.h). A new mixer is YAML: the layer
 * machine types layers by the mixer index a category gives, the model
 * line says what the mixer says.
 */
#include "tables/patterns_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The directory part of path, for telling one directory's files from
 * another's. */
static size_t dir_len(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? (size_t)(s - path) : 0;
}

static bool same_dir(const char *a, const char *b)
{
	size_t n = dir_len(a);
	return n == dir_len(b) && strncmp(a, b, n) == 0;
}

static int find_mixer(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < p->nmixers; i++)
		if (strcmp(p->mixers[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void name_types(ts_mixer_kind *m, const char *label)
{
	snprintf(m->label, sizeof m->label, "%s", label);
	snprintf(m->type_name[0], sizeof m->type_name[0], "%s+MoE", label);
	snprintf(m->type_name[1], sizeof m->type_name[1], "%s+FC", label);
}

/* One mixer of file: new, or replacing a mixer of the same name that an
 * earlier-loaded (built-in) directory declared. */
static void add_mixer(ts_patterns *p, const char *file, const y_mixer *y, int i, int line)
{
	ts_ypath path[] = { { "mixers", 0 }, { NULL, i }, { "name", 0 } };
	long rank = 0;
	if (y->rank && !ts_pat_parse_long(y->rank, -1000, 1000, &rank)) {
		path[2].key = "rank";
		ts_pat_error_at(p, file, path, 3, 0, "rank '%s' is not a whole number in -1000..1000",
				y->rank);
		return;
	}
	if (strcmp(y->name, "none") == 0) {
		ts_pat_error_at(p, file, path, 3, 0, "'none' is no mixer (a category's mixer: none "
				"says it has none)");
		return;
	}
	int k = find_mixer(p, y->name);
	if (k >= 0 && same_dir(p->mixers[k].file, file)) {
		ts_pat_error_at(p, file, path, 3, 0, "mixer '%s' is also declared in %s", y->name,
				p->mixers[k].file);
		return;
	}
	if (k < 0 && p->nmixers == TS_MIXERS_MAX) {
		ts_pat_error_at(p, file, path, 3, 0, "mixer '%s': at most %d mixers", y->name,
				TS_MIXERS_MAX);
		return;
	}
	if (k < 0)
		k = (int)p->nmixers++;
	ts_mixer_kind *m = &p->mixers[k];
	*m = (ts_mixer_kind){ .name = y->name, .says = y->says, .rank = rank,
			      .description = y->description ? y->description : "",
			      .linear = y->linear, .is_default = y->is_default,
			      .file = file, .line = line };
	name_types(m, y->label);
}

/* The default mixer: the one the latest directory marked (a user's
 * replaces the built-in's); two in one directory are an error. */
static void settle_default(ts_patterns *p)
{
	p->default_mixer = -1;
	for (size_t i = 0; i < p->nmixers; i++) {
		if (!p->mixers[i].is_default)
			continue;
		int d = p->default_mixer;
		if (d >= 0 && same_dir(p->mixers[d].file, p->mixers[i].file)) {
			ts_pat_fail(p, p->mixers[i].file, p->mixers[i].line, 0,
				    "mixers '%s' and '%s' are both default", p->mixers[d].name,
				    p->mixers[i].name);
			return;
		}
		p->default_mixer = (int)i;
	}
}

static void add_file_mixers(ts_patterns *p, const char *file, const y_kernels *k)
{
	if (!k->mixers_count)
		return;
	int *lines = ts_pat_item_lines(file, "mixers", k->mixers_count);
	for (unsigned i = 0; i < k->mixers_count; i++)
		add_mixer(p, file, &k->mixers[i], (int)i, lines ? lines[i] : 0);
	free(lines);
}

void ts_pat_add_mixers(ts_patterns *p, size_t first, size_t end)
{
	/* the built-in directory (loaded last) first: its mixers keep their
	 * indices, so a user's new one comes after them in the report */
	size_t hi = end;
	while (hi > first) {
		size_t lo = hi - 1;
		while (lo > first && same_dir(p->files[lo - 1].path, p->files[hi - 1].path))
			lo--;
		for (size_t i = lo; i < hi; i++)
			if (p->files[i].doc)
				add_file_mixers(p, p->files[i].path, p->files[i].doc);
		hi = lo;
	}
	settle_default(p);
}

/* A category's mixer: word, resolved against the mixers declared; false
 * with an error naming them where it is none of them. */
bool ts_pat_category_mixer(ts_patterns *p, const char *file, const char *word, int i, int *out)
{
	*out = TS_MIXER_BY_TYPE;
	if (!word)
		return true;
	if (strcmp(word, "none") == 0) {
		*out = TS_MIXER_NONE;
		return true;
	}
	char known[256];
	size_t n = (size_t)snprintf(known, sizeof known, "none");
	for (size_t k = 0; k < p->nmixers; k++) {
		if (strcmp(p->mixers[k].name, word) == 0) {
			*out = (int)k;
			return true;
		}
		if (n < sizeof known)
			n += (size_t)snprintf(known + n, sizeof known - n, ", %s", p->mixers[k].name);
	}
	ts_ypath path[] = { { "categories", 0 }, { NULL, i }, { "mixer", 0 } };
	ts_pat_error_at(p, file, path, 3, 0, "unknown mixer '%s' (one of %s; mixers: declares them)",
			word, known);
	return false;
}

/* ------------------------------------------------------------- queries */

size_t ts_patterns_nmixers(const ts_patterns *p)
{
	return p ? p->nmixers : 0;
}

const ts_mixer_kind *ts_patterns_mixer(const ts_patterns *p, size_t i)
{
	return &p->mixers[i];
}

int ts_patterns_default_mixer(const ts_patterns *p)
{
	return p ? p->default_mixer : -1;
}

int ts_patterns_category_mixer(const ts_patterns *p, const ts_category *c)
{
	int m = c ? c->mixer : TS_MIXER_BY_TYPE;
	if (m == TS_MIXER_BY_TYPE)
		return ts_patterns_default_mixer(p);
	return m >= 0 ? m : -1;
}

const char *ts_ltype_name(const ts_patterns *p, ts_ltype t)
{
	static const char *const rest[] = { "Attn-only", "MoE-only", "FC-only", "unknown" };
	static const char *const slot[TS_LT_ATTN_ONLY] = {
		"Mixer0+MoE", "Mixer0+FC", "Mixer1+MoE", "Mixer1+FC", "Mixer2+MoE", "Mixer2+FC",
		"Mixer3+MoE", "Mixer3+FC", "Mixer4+MoE", "Mixer4+FC", "Mixer5+MoE", "Mixer5+FC",
		"Mixer6+MoE", "Mixer6+FC", "Mixer7+MoE", "Mixer7+FC",
	};
	if ((unsigned)t >= TS_LT_COUNT)
		return "unknown";
	if (t >= TS_LT_ATTN_ONLY)
		return rest[t - TS_LT_ATTN_ONLY];
	size_t k = (size_t)ts_ltype_mixer(t);
	/* tables without that mixer (a partial from other tables) */
	if (!p || k >= p->nmixers)
		return slot[t];
	return p->mixers[k].type_name[t & 1];
}
