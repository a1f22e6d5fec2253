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

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/base/status.h"

typedef struct ts_reader ts_reader;

/*
 * Open path ("-" is stdin). read_size caps each read() and each chunk handed
 * out (1 .. 1 MiB; tests use 1..31 to move chunk boundaries). With map, a
 * plain (not gzip) regular file is mapped and ts_reader_view hands out its
 * bytes where they lie, no copy (a file that cannot be mapped is read). On
 * failure returns NULL and sets *st (TS_ERR_IO with errno preserved,
 * TS_ERR_NOMEM).
 */
ts_reader *ts_reader_open(const char *path, size_t read_size, bool map, ts_status *st);
void ts_reader_free(ts_reader *r);

/*
 * Fill buf with up to cap bytes of (decompressed) input. *n is 0 only at the
 * end of the input. TS_ERR_IO, TS_ERR_GZIP or TS_ERR_TRUNCATED (gzip stream
 * cut short) on failure; the bytes returned before stay valid.
 */
ts_status ts_reader_read(ts_reader *r, char *buf, size_t cap, size_t *n);

/*
 * The next bytes, as ts_reader_read gives them (the same chunks, statuses
 * and offsets), in *p: in the file's mapping when it is mapped (buf is not
 * used), in buf otherwise. They stay valid until the next call.
 */
ts_status ts_reader_view(ts_reader *r, char *buf, size_t cap, const char **p, size_t *n);
bool ts_reader_mapped(const ts_reader *r);
/* A mapped file: where its mapping starts (byte 0; NULL when not mapped),
 * and the offset from which its bytes stay resident while they are still
 * read elsewhere (the mapping gives back only the bytes before it and
 * before the last view's). */
const char *ts_reader_map_base(const ts_reader *r);
void ts_reader_hold(ts_reader *r, uint64_t offset);
/* The file's size now (it may have shrunk since it was opened). */
int64_t ts_reader_size_now(const ts_reader *r);

/*
 * A mapped file cut shorter by someone else while it is read raises
 * SIGBUS where the lost bytes are touched. Around the parse of a mapped
 * file, a thread arms its own guard: the fault then jumps back to jb
 * (sigsetjmp(*jb, 1) returns 1), and the caller reports the file cut.
 */
void ts_reader_guard(sigjmp_buf *jb);
void ts_reader_unguard(void);

const char *ts_reader_error(const ts_reader *r);
int ts_reader_is_gzip(const ts_reader *r);
uint64_t ts_reader_in_bytes(const ts_reader *r);  /* raw bytes read */
uint64_t ts_reader_out_bytes(const ts_reader *r); /* bytes handed out */
int64_t ts_reader_size(const ts_reader *r);       /* file size, -1 unknown */

#endif
