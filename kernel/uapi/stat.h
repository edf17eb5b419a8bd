/*
 * struct stat as stat, fstat, lstat and newfstatat write it: x86_64's
 * arch/x86/include/uapi/asm/stat.h, 144 bytes.  Named linux_stat so that a
 * ring-3 program may include this next to its libc's struct stat.
 */
#ifndef KERNEL_UAPI_STAT_H
#define KERNEL_UAPI_STAT_H

#include <stdint.h>

struct linux_stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	uint64_t st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	int64_t unused[3];
};
_Static_assert(sizeof(struct linux_stat) == 144, "x86_64 struct stat is 144 bytes");

/* struct statfs as statfs and fstatfs write it: x86_64's (asm-generic/statfs.h), 120 bytes. */
struct linux_statfs {
	int64_t f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	int64_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct linux_statfs) == 120, "x86_64 struct statfs is 120 bytes");

#endif
