/*
 * The file-system core: inodes, the ramfs root, path walk and permission.
 *
 * The root is a ramfs (as Linux's rootfs): directories are lists of named
 * entries in memory, a regular file's bytes live in contiguous pages, and
 * everything is gone at power-off.  /proc is a second file system, mounted
 * on the root's /proc directory: the walk crosses into it (and back out
 * through "..") as Linux's follow_mount does.  Other file systems plug in
 * through struct inode_ops; only ramfs changes the namespace (mkdir, unlink,
 * rename, ...), every other one answers EPERM.
 *
 * Limits (memory is the kernel's static pools): NR_INODES inodes, NR_DENTRIES
 * names (ENOSPC past either, as a full tmpfs), FILE_SIZE_MAX bytes per file
 * (EFBIG), file data in all at most half of memory (ENOSPC: tmpfs's default
 * size), NAME_MAX and PATH_MAX as Linux (ENAMETOOLONG).
 */
#ifndef KERNEL_FS_VFS_H
#define KERNEL_FS_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/task/cred.h"

#define NAME_MAX      255
#define PATH_MAX      4096
#define NR_INODES     1024
#define NR_DENTRIES   1024
#define FILE_SIZE_MAX (64UL << 20)
#define MAXSYMLINKS   40
/*
 * A ramfs file's data: pages mapped one by one into the file's own window
 * of FILE_SIZE_MAX bytes of kernel address space (inode i at START + i *
 * FILE_SIZE_MAX, 64 GiB in all, after the ioremap window), so a file grows
 * a page at a time with nothing copied, and exec still reads it as one
 * buffer.  Linux's page cache grows a file page by page too.
 */
#define RAMFS_WINDOW_START 0xffffcb0000000000ULL

/* Mode bits (Linux's include/uapi/linux/stat.h). */
#define S_IFMT	   0170000
#define S_IFSOCK   0140000
#define S_IFLNK	   0120000
#define S_IFREG	   0100000
#define S_IFBLK	   0060000
#define S_IFDIR	   0040000
#define S_IFCHR	   0020000
#define S_IFIFO	   0010000
#define S_ISUID	   04000
#define S_ISGID	   02000
#define S_ISVTX	   01000
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#define S_ISCHR(m) (((m)&S_IFMT) == S_IFCHR)

/* access masks, as generic_permission's MAY_* */
#define MAY_EXEC  1
#define MAY_WRITE 2
#define MAY_READ  4

/* d_type of getdents64 */
#define DT_UNKNOWN 0
#define DT_FIFO	   1
#define DT_CHR	   2
#define DT_DIR	   4
#define DT_REG	   8
#define DT_LNK	   10

/* Character devices: Linux's major/minor. */
#define DEV_NULL    ((1 << 8) | 3)
#define DEV_ZERO    ((1 << 8) | 5)
#define DEV_TTY	    ((5 << 8) | 0)
#define DEV_CONSOLE ((5 << 8) | 1)

struct inode;
struct dentry;

struct dirent_out {
	char name[NAME_MAX + 1];
	uint64_t ino;
	unsigned char type;
};

struct inode_ops {
	/* A referenced child, -ENOENT ... */
	int (*lookup)(struct inode *dir, const char *name, struct inode **out);
	/* Entry number idx (0 and 1 are "." and ".."): 1 = past the end. */
	int (*readdir)(struct inode *dir, uint64_t idx, struct dirent_out *d);
	long (*readlink)(struct inode *ino, char *buf, size_t n);
	long (*open)(struct inode *ino, int flags, struct file **out);
	void (*release)(struct inode *ino);		      /* the last reference went */
	long (*path)(struct inode *ino, char *buf, size_t n); /* other file systems' d_path */
	/* statfs: the file system's magic (include/uapi/linux/magic.h) and its mount's ST_* */
	uint32_t magic;
	uint32_t st_flags;
};

/* statfs's f_flags (include/linux/statfs.h) */
#define ST_NOSUID   0x0002
#define ST_NODEV    0x0004
#define ST_NOEXEC   0x0008
#define ST_VALID    0x0020
#define ST_RELATIME 0x1000

struct inode {
	int refs; /* walks, open files, cwds; the tree's links count in nlink */
	uint32_t ino;
	uint32_t mode;
	uint32_t uid, gid;
	uint32_t nlink;
	uint32_t rdev;
	uint64_t size;
	int64_t mtime, ctime, atime; /* seconds */
	const struct inode_ops *op;
	struct inode *parent;  /* directories: ".." (the root points to itself) */
	struct inode *mounted; /* a ramfs directory covered by a mount: the mounted root */
	struct inode *covered; /* a mounted root: the directory it covers */
	bool ramfs;
	/*
	 * A removed directory (Linux's S_DEAD, IS_DEADDIR): rmdir, or a rename
	 * over it.  Someone's cwd or open fd may keep it; nothing may be
	 * created, linked or listed in it, so its inode goes with the last
	 * reference instead of holding orphans forever.
	 */
	bool dead;
	/*
	 * Linux's i_rwsem taken for writing: held by write() and truncate on a
	 * regular ramfs file, so that a write that gives up the CPU between
	 * pages is still one step to every other writer and truncate.
	 */
	struct mutex i_rwsem;
	union {
		struct {
			struct dentry *children; /* directories */
			char *data;		 /* regular files, symlinks: page-backed */
			uint64_t pages;		 /* mapped in its window, holes included */
			uint64_t blocks;	 /* of them real pages (st_blocks) */
		} ram;
		struct {
			int node, pid, fd; /* enum proc_node, 0 / -1 self, fd for fd links */
			uint64_t serial;   /* the task pid named when the inode was made */
		} proc;
		void *priv; /* pipes */
	};
};

struct dentry {
	char name[NAME_MAX + 1];
	struct inode *inode;
	struct dentry *next;
};

/* The ramfs root and the namespace. */
extern struct inode *root_inode;
void vfs_init(void);
/* err (may be NULL): -ENOMEM (fail-nth) or -ENOSPC (the pool is full). */
struct inode *inode_alloc(uint32_t mode, const struct inode_ops *op, long *err);
void iget(struct inode *ino);
/* Pages holding ramfs file data: files outlive the processes that wrote them. */
uint64_t vfs_ramfs_pages(void);
int vfs_inodes_in_use(void);   /* tests: a leak shows as a count that grows */
int vfs_dentries_in_use(void); /* the same for names */
/* Unlinked ramfs files still referenced (an fd, a mapping): the fuzzer's leak check. */
int vfs_orphans_in_use(void);
void vfs_print_orphans(void);
/* Which inodes are in use (1) now; then those in use that were not, with a path each. */
void vfs_inode_map(uint8_t map[NR_INODES]);
void vfs_print_new_inodes(const uint8_t before[NR_INODES]); /* each one, for the fuzzer's report */
void iput(struct inode *ino);
/* The write lock (inode->i_rwsem): sleeps while another task holds it. */
void inode_lock(struct inode *ino);
void inode_unlock(struct inode *ino);
/* Whether write and truncate take the lock: regular ramfs files. */
bool inode_lockable(const struct inode *ino);
int ramfs_lookup(struct inode *dir, const char *name, struct inode **out);
/* Links ino into dir under name; -EEXIST, -ENOSPC, -ENAMETOOLONG. */
int ramfs_link(struct inode *dir, const char *name, struct inode *ino);
/* A name allocated ahead (rename: before anything changes), then added. */
struct dentry *ramfs_d_alloc(long *err);
void ramfs_d_free(struct dentry *d);
void ramfs_d_add(struct inode *dir, const char *name, struct inode *ino, struct dentry *d);
int ramfs_unlink(struct inode *dir, const char *name);
/* Before writing [off, off + n) of ram.data: its holes become pages (ENOSPC, ENOMEM). */
int ramfs_prepare_write(struct inode *ino, uint64_t off, uint64_t n);
struct inode *ramfs_new(uint32_t mode, uint32_t uid, uint32_t gid, long *err);
/* Grows or shrinks a file to size bytes (new bytes zero): -EFBIG, -ENOSPC. */
int ramfs_truncate(struct inode *ino, uint64_t size);
int ramfs_set_data(struct inode *ino, const void *data, uint64_t size);
bool ramfs_dir_empty(struct inode *dir);
/* The mount: root of another file system over a ramfs directory. */
void vfs_mount(struct inode *dir, struct inode *fs_root);
int64_t vfs_now(void);

/* Permission, as Linux's generic_permission with CAP_DAC_OVERRIDE/READ_SEARCH. */
int inode_permission(struct inode *ino, int mask);
/* May the caller delete or rename the entry ino in dir?  The sticky bit rule. */
int may_delete(struct inode *dir, struct inode *ino);
/* may_create as Linux's: ENOENT in a dead directory, else write and search on dir. */
int may_create(struct inode *dir);

/* Path walk (namei.c).  start NULL: the caller's cwd (or root). */
#define LOOKUP_FOLLOW 1 /* follow a final symlink */
#define LOOKUP_DIR    2 /* the final component must be a directory */
int path_lookup(struct inode *start, const char *path, int flags, struct inode **out);
/*
 * Walks all but the last component: *dir is the referenced parent, last
 * (NAME_MAX + 1 bytes) its final name ("" for "/"); trailing slashes set
 * *must_dir.
 */
int path_parent(struct inode *start, const char *path, struct inode **dir, char *last,
		bool *must_dir);
/* An absolute path to a directory (getcwd, /proc/self/fd). */
long dir_path(struct inode *dir, char *buf, size_t n);
/* Any inode's path, as Linux's d_path: "(deleted)" once it has no name. */
long inode_path(struct inode *ino, char *buf, size_t n);

/* open(2) from start (NULL: cwd); mode for O_CREAT, before the umask. */
long do_filp_open(struct inode *start, const char *path, int flags, uint32_t mode,
		  struct file **out);
/* Opens an inode: permission checked by the caller. */
long vfs_open_inode(struct inode *ino, int flags, struct file **out);

/* Hooks for the task layer: the cwd's reference follows fork and exit. */
void vfs_task_hooks(void);

#endif
