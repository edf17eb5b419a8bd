/*
 * The initramfs: the loader's cpio archive unpacked into the ramfs root, as
 * Linux's populate_rootfs (init/initramfs.c, v6.6) does, then the nodes the
 * kernel always provides: /dev/{null,zero,console,tty}, /tmp (1777) and
 * /proc (mounted by proc_init_fs).  A bad archive stops the unpack with one
 * line naming the entry ("initramfs: entry 'x' at offset N: why"); what was
 * unpacked before it stays, and the kernel goes on.
 *
 * Entries: directories, regular files (hard links by (ino, dev) when
 * nlink >= 2, as Linux's find_link), symlinks and character devices, with
 * mode, uid, gid and mtime from the archive.  An existing non-directory is
 * replaced (Linux's clean_path); "." is skipped (Linux's mkdir of "." fails
 * and is ignored).  FIFOs, sockets and block devices are refused (EINVAL).
 */
#include "kernel/fs/cpio.h"
#include "kernel/fs/initramfs.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"

#define NR_HARDLINKS 256

static struct {
	uint32_t ino, major, minor;
	struct inode *inode;
} links[NR_HARDLINKS];
static int nr_links;

static struct inode *find_link(const struct cpio_entry *e)
{
	for (int i = 0; i < nr_links; i++)
		if (links[i].ino == e->ino && links[i].major == e->devmajor &&
		    links[i].minor == e->devminor && links[i].inode->nlink)
			return links[i].inode;
	return 0;
}

static void remember_link(const struct cpio_entry *e, struct inode *ino)
{
	if (nr_links < NR_HARDLINKS)
		links[nr_links++] = (typeof(links[0])){e->ino, e->devmajor, e->devminor, ino};
}

static void set_attrs(struct inode *ino, const struct cpio_entry *e)
{
	ino->mode = (ino->mode & S_IFMT) | (e->mode & 07777);
	ino->uid = e->uid;
	ino->gid = e->gid;
	ino->mtime = ino->ctime = ino->atime = e->mtime;
}

static int make_node(const struct cpio_entry *e, struct inode **out)
{
	uint32_t type = e->mode & S_IFMT;
	struct inode *ino;
	int rc = 0;
	long err;

	if (type != S_IFDIR && type != S_IFREG && type != S_IFLNK && type != S_IFCHR)
		return -EINVAL;
	if (type == S_IFLNK && (e->size == 0 || e->size >= PATH_MAX))
		return -EINVAL;
	ino = ramfs_new(type, 0, 0, &err);
	if (!ino)
		return (int)err;
	if (type == S_IFREG || type == S_IFLNK)
		rc = ramfs_set_data(ino, e->data, e->size);
	if (type == S_IFCHR)
		ino->rdev = (e->rdevmajor << 8) | (e->rdevminor & 0xff);
	if (rc) {
		iput(ino);
		return rc;
	}
	*out = ino;
	return 0;
}

static int unpack_entry(void *ctx, const struct cpio_entry *e)
{
	const char *name = e->name;
	char last[NAME_MAX + 1];
	struct inode *dir, *old, *ino;
	bool must_dir;
	int rc;

	(void)ctx;
	while (*name == '/' || (name[0] == '.' && name[1] == '/'))
		name += name[0] == '/' ? 1 : 2;
	if (!*name || !strcmp(name, "."))
		return 0;
	if ((rc = path_parent(root_inode, name, &dir, last, &must_dir)))
		return rc;
	if (!dir->ramfs) {
		iput(dir);
		return -EINVAL;
	}
	if (!ramfs_lookup(dir, last, &old)) {
		if (S_ISDIR(old->mode) && S_ISDIR(e->mode)) {
			set_attrs(old, e);
			iput(old);
			iput(dir);
			return 0;
		}
		iput(old);
		if (S_ISDIR(old->mode)) {
			iput(dir);
			return -EEXIST;
		}
		ramfs_unlink(dir, last);
	}
	if (S_ISREG(e->mode) && e->nlink >= 2 && (ino = find_link(e))) {
		rc = ramfs_link(dir, last, ino);
		iput(dir);
		return rc;
	}
	if ((rc = make_node(e, &ino))) {
		iput(dir);
		return rc;
	}
	set_attrs(ino, e);
	rc = ramfs_link(dir, last, ino);
	if (!rc && S_ISREG(e->mode) && e->nlink >= 2)
		remember_link(e, ino);
	iput(ino);
	iput(dir);
	return rc;
}

/* mkdir/mknod of the built-in nodes, unless the archive made them. */
static struct inode *ensure(struct inode *dir, const char *name, uint32_t mode, uint32_t rdev)
{
	struct inode *ino;

	if (!ramfs_lookup(dir, name, &ino))
		return ino;
	ino = ramfs_new(mode, 0, 0, 0);
	if (!ino)
		return 0;
	ino->rdev = rdev;
	if (ramfs_link(dir, name, ino)) {
		iput(ino);
		return 0;
	}
	return ino;
}

static void builtin_nodes(void)
{
	struct inode *dev = ensure(root_inode, "dev", S_IFDIR | 0755, 0), *n;

	if (dev) {
		static const struct {
			const char *name;
			uint32_t mode, rdev;
		} nodes[] = {{"null", S_IFCHR | 0666, DEV_NULL},
			     {"zero", S_IFCHR | 0666, DEV_ZERO},
			     {"console", S_IFCHR | 0600, DEV_CONSOLE},
			     {"tty", S_IFCHR | 0666, DEV_TTY}};

		for (unsigned i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
			iput(ensure(dev, nodes[i].name, nodes[i].mode, nodes[i].rdev));
		iput(dev);
	}
	iput(ensure(root_inode, "proc", S_IFDIR | 0555, 0));
	n = ensure(root_inode, "tmp", S_IFDIR | 01777, 0);
	if (n && S_ISDIR(n->mode))
		n->mode =
			S_IFDIR | 01777; /* world-writable and sticky, whatever the archive said */
	iput(n);
}

long initramfs_unpack(const void *archive, size_t len)
{
	char err[160];
	long n = 0;

	if (archive && len) {
		n = cpio_parse(archive, len, unpack_entry, 0, err, sizeof(err));
		if (n < 0)
			kprintf("%s; keeping what was unpacked\n", err);
		else
			kprintf("initramfs: %ld entries unpacked (%zu bytes)\n", n, len);
	} else {
		kprintf("initramfs: none; the root holds only the built-in nodes\n");
	}
	builtin_nodes();
	return n;
}
