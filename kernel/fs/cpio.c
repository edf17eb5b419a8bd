/*
 * cpio newc parser: see cpio.h.  Every field is checked before it is used:
 * the magic, each of the 13 hex fields, the name size (1..PATH_MAX, NUL at
 * its end and nowhere before), file sizes against the bytes left, ".."
 * components, and what follows TRAILER!!!.
 *
 * Linux (init/initramfs.c, v6.6) stops at the first fault with "Initramfs
 * unpacking failed: <why>" and keeps what it unpacked; so does this.  One
 * difference, on purpose: Linux accepts more archives concatenated after a
 * TRAILER!!!; here only zero padding may follow it, so a stray tail is
 * reported instead of silently unpacked.
 */
#include "common/hex.h"
#include "kernel/fs/cpio.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

#define NFIELDS 13

static int hex8(const uint8_t *p, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		int d = hex_to_bin(p[i]);

		if (d < 0)
			return -1;
		v = v * 16 + (uint32_t)d;
	}
	*out = v;
	return 0;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* The entry's name for a message: printable, at most 60 bytes. */
static void show_name(char *out, const uint8_t *name, size_t n)
{
	size_t i;

	if (n > 60)
		n = 60;
	for (i = 0; i < n && name[i]; i++)
		out[i] = name[i] >= 0x20 && name[i] < 0x7f ? (char)name[i] : '?';
	out[i] = '\0';
}

static int has_dotdot(const char *s)
{
	for (const char *p = s; *p;) {
		const char *start = p;

		while (*p && *p != '/')
			p++;
		if (p - start == 2 && start[0] == '.' && start[1] == '.')
			return 1;
		if (*p)
			p++;
	}
	return 0;
}

/* The entry by number (from 1) and, once its name is known, by name. */
#define fail(err, errsz, off, name, why) fail_at(err, errsz, count + 1, off, name, why)
static long fail_at(char *err, size_t errsz, long nr, size_t off, const char *name, const char *why)
{
	if (name[0])
		ksnprintf(err, errsz, "initramfs: entry %ld '%s' (offset %zu): %s", nr, name, off,
			  why);
	else
		ksnprintf(err, errsz, "initramfs: entry %ld (offset %zu): %s", nr, off, why);
	return -1;
}

static const char *errno_text(int e)
{
	switch (-e) {
	case ENOSPC:
		return "no space left (ENOSPC)";
	case ENOMEM:
		return "out of memory (ENOMEM)";
	case ENOENT:
		return "parent directory missing (ENOENT)";
	case ENOTDIR:
		return "a parent is not a directory (ENOTDIR)";
	case EEXIST:
		return "exists and is not a directory (EEXIST)";
	case EINVAL:
		return "unsupported file type (EINVAL)";
	case ENAMETOOLONG:
		return "a component is longer than NAME_MAX (ENAMETOOLONG)";
	default:
		return "cannot create it";
	}
}

long cpio_parse(const uint8_t *buf, size_t len, cpio_entry_fn fn, void *ctx, char *err,
		size_t errsz)
{
	size_t off = 0;
	long count = 0;
	char shown[64];

	err[0] = '\0';
	while (off < len) {
		uint32_t f[NFIELDS];
		struct cpio_entry e;
		size_t name_off, data_off;
		const uint8_t *h = buf + off;
		int rc;

		if (len - off < CPIO_HDR_LEN) {
			/* Zero padding (a block-sized archive's tail) ends it too. */
			for (size_t i = off; i < len; i++)
				if (buf[i])
					return fail(err, errsz, off, "", "truncated header");
			break;
		}
		if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6)) {
			int zeros = 1;

			for (size_t i = off; i < len && zeros; i++)
				zeros = !buf[i];
			if (zeros)
				break;
			return fail(err, errsz, off, "", "no cpio magic (not newc 070701)");
		}
		for (int i = 0; i < NFIELDS; i++)
			if (hex8(h + 6 + 8 * i, &f[i]))
				return fail(err, errsz, off, "", "header field is not hexadecimal");
		e.ino = f[0], e.mode = f[1], e.uid = f[2], e.gid = f[3], e.nlink = f[4];
		e.mtime = f[5], e.size = f[6], e.devmajor = f[7], e.devminor = f[8];
		e.rdevmajor = f[9], e.rdevminor = f[10];
		name_off = off + CPIO_HDR_LEN;
		if (f[11] == 0 || f[11] > CPIO_NAME_MAX)
			return fail(err, errsz, off, "", "name size is 0 or above PATH_MAX");
		if (len - name_off < f[11])
			return fail(err, errsz, off, "", "truncated name");
		show_name(shown, buf + name_off, f[11]);
		if (buf[name_off + f[11] - 1] != '\0' ||
		    strnlen((const char *)buf + name_off, f[11]) != f[11] - 1)
			return fail(err, errsz, off, shown,
				    "name is not NUL-terminated at its size");
		e.name = (const char *)buf + name_off;
		data_off = align4(name_off + f[11]);
		if (data_off > len || len - data_off < e.size)
			return fail(err, errsz, off, shown,
				    "file size runs past the end of the archive");
		e.data = buf + data_off;
		if (!strcmp(e.name, "TRAILER!!!")) {
			off = align4(data_off + e.size);
			for (size_t i = off; i < len; i++)
				if (buf[i])
					return fail(err, errsz, i, "",
						    "data after TRAILER!!! (only zero padding may "
						    "follow)");
			return count;
		}
		if (has_dotdot(e.name))
			return fail(err, errsz, off, shown, "path has a '..' component");
		rc = fn(ctx, &e);
		if (rc)
			return fail(err, errsz, off, shown, errno_text(rc));
		count++;
		off = align4(data_off + e.size);
	}
	/* Linux says so too ("no TRAILER!!!" is not an error there, a short read is). */
	if (count)
		return fail(err, errsz, len, "", "archive ends without TRAILER!!!");
	return 0;
}
