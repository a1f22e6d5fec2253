/*
 * reader.h - byte source for the parser: a file or stdin, plain or gzip.
 *
 * Gzip is recognised by its magic bytes, never by the file name, for files
 * and stdin alike; concatenated gzip members are read as one stream, inflated
 * on a thread of the reader's own (NSLOT chunks ahead; the chunks, statuses
 * and offsets handed out are those of inflating inline). The reader owns its
 * buffers; the bytes it returns are copied into the caller's buffer. Errors
 * leave a message in ts_reader_error() and are sticky. One reader is used by
 * one thread.
 */
#ifndef TS_READER_H
#define TS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "input/status.h"

typedef struct ts_reader ts_reader;

/*
 * Open path ("-" is stdin). read_size caps each read() and each chunk handed
 * out (1 .. 1 MiB; tests use 1..31 to move chunk boundaries). On failure
 * returns NULL and sets *st (TS_ERR_IO with errno preserved, TS_ERR_NOMEM).
 */
ts_reader *ts_reader_open(const char *path, size_t read_size, ts_status *st);
void ts_reader_free(ts_reader *r);

/*
 * Fill buf with up to cap bytes of (decompressed) input. *n is 0 only at the
 * end of the input. TS_ERR_IO, TS_ERR_GZIP or TS_ERR_TRUNCATED (gzip stream
 * cut short) on failure; the bytes returned before stay valid.
 */
ts_status ts_reader_read(ts_reader *r, char *buf, size_t cap, size_t *n);

const char *ts_reader_error(const ts_reader *r);
int ts_reader_is_gzip(const ts_reader *r);
uint64_t ts_reader_in_bytes(const ts_reader *r);  /* raw bytes read */
uint64_t ts_reader_out_bytes(const ts_reader *r); /* bytes handed out */
int64_t ts_reader_size(const ts_reader *r);       /* file size, -1 unknown */

#endif
