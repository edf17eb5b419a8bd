/*
 * The initramfs archive format: cpio "newc" (magic 070701, or 070702 with a
 * checksum), as Linux's init/initramfs.c (v6.6) reads it.  A pure parser (no
 * kernel state), so tests/fs/test_cpio.c runs it on the host against
 * truncated and corrupt archives.
 */
#ifndef KERNEL_FS_CPIO_H
#define KERNEL_FS_CPIO_H

#include <stddef.h>
#include <stdint.h>

#define CPIO_HDR_LEN  110
#define CPIO_NAME_MAX 4096 /* PATH_MAX, as Linux's name_len check */

struct cpio_entry {
	const char *name; /* NUL-terminated, inside the archive, no leading "/" or "./" */
	uint32_t ino, mode, uid, gid, nlink, mtime;
	uint32_t devmajor, devminor, rdevmajor, rdevminor;
	const uint8_t *data; /* file contents or symlink target (not NUL-terminated) */
	uint32_t size;
};

/* Called per entry; returns 0 or -errno (the parse stops, naming the entry). */
typedef int (*cpio_entry_fn)(void *ctx, const struct cpio_entry *e);

/*
 * Walks the archive, calling fn for each entry before TRAILER!!!.  Returns
 * the number of entries unpacked, or -1 with a one-line message in err
 * naming the entry and the fault; the entries before it stay unpacked.
 */
long cpio_parse(const uint8_t *buf, size_t len, cpio_entry_fn fn, void *ctx, char *err,
		size_t errsz);

#endif
