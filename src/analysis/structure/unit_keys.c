/*
 * unit_keys.c - a pass's kernels as the unit finder reads them: dense ids
 * for the keys, each key's count, first place, class and places in order
 * (the anchors' candidates come from these).
 */
#include "analysis/structure/unit_int.h"
#include "input/base/hash.h"

#include <stdlib.h>
#include <string.h>

/* Room for need keys in every per-key array (one capacity for all). */
static bool keys_room(ts_unit *u, size_t need)
{
	ts_grow_part parts[] = {
		{ (void **)&u->cnt, sizeof *u->cnt }, { (void **)&u->off, sizeof *u->off },
		{ (void **)&u->first, sizeof *u->first }, { (void **)&u->fill, sizeof *u->fill },
		{ (void **)&u->byc, sizeof *u->byc }, { (void **)&u->cls, sizeof *u->cls },
		{ (void **)&u->inref, sizeof *u->inref }, { (void **)&u->gh, sizeof *u->gh },
	};
	return ts_grow_each(parts, sizeof parts / sizeof *parts, &u->key_cap, need, 64,
			    SIZE_MAX / 16, false);
}

/* Dense ids for the keys, their counts, positions and classes. */
bool ts_unit_index_keys(ts_unit *u, const uint32_t *key)
{
	size_t n = u->n, hc = 16;
	while (hc < 2 * n)
		hc *= 2;
	if (!ts_unit_grow(&u->id, &u->id_cap, n, sizeof *u->id) ||
	    !ts_unit_grow(&u->pos, &u->pos_cap, n, sizeof *u->pos))
		return false;
	if (hc > u->hcap) {
		free(u->htab);
		free(u->hkey);
		u->htab = malloc(hc * sizeof *u->htab);
		u->hkey = malloc(hc * sizeof *u->hkey);
		if (!u->htab || !u->hkey) {
			u->hcap = 0;
			return false;
		}
		u->hcap = hc;
	}
	memset(u->htab, 0, u->hcap * sizeof *u->htab);
	uint32_t nk = 0;
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)ts_hash_u64(key[i]) & (u->hcap - 1);
		while (u->htab[h] && u->hkey[h] != key[i])
			h = (h + 1) & (u->hcap - 1);
		if (!u->htab[h]) {
			u->htab[h] = ++nk;
			u->hkey[h] = key[i];
		}
		u->id[i] = u->htab[h] - 1;
	}
	u->nk = nk;
	if (!keys_room(u, (size_t)nk + 1))
		return false;
	memset(u->cnt, 0, nk * sizeof *u->cnt);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = u->id[i];
		if (u->cnt[k]++ == 0) {
			u->first[k] = (uint32_t)i;
			u->cls[k] = u->mark ? u->mark[i] : 0;
		}
	}
	u->off[0] = 0;
	for (uint32_t k = 0; k < nk; k++) {
		u->off[k + 1] = u->off[k] + u->cnt[k];
		u->fill[k] = u->off[k];
	}
	for (size_t i = 0; i < n; i++)
		u->pos[u->fill[u->id[i]]++] = (uint32_t)i;
	return true;
}
