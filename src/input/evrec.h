/*
 * evrec.h - one event as a compact record of bytes, and back: what a
 * parse worker hands the caller's thread (pparse.c) and what the sorter
 * keeps of each event until it is put in order (order.c).
 *
 * A record holds every field of ts_event a stage reads (the has bits say
 * which), its name and kname, and the hash of its name (made when it is
 * written: the caller's thread interns names without hashing again). A
 * record read back points its event's strings into the record's bytes.
 */
#ifndef TS_EVREC_H
#define TS_EVREC_H

#include <stddef.h>
#include <stdint.h>

#include "input/event.h"

/* The most bytes e's record can take. */
size_t ts_evrec_most(const ts_event *e);

/* e written at w (room for ts_evrec_most(e) bytes); returns the byte
 * after it. */
unsigned char *ts_evrec_put(unsigned char *w, const ts_event *e);

/* The record at r into *ev; returns the byte after it. ev->end_offset is
 * the event's, as it was written. */
const unsigned char *ts_evrec_get(const unsigned char *r, ts_event *ev);

#endif
