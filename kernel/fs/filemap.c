/*
 * File-backed mmap: ramfs keeps a file's bytes in contiguous kernel memory
 * that moves when the file grows, so a mapping cannot point at them (Linux's
 * page cache pages stay put); instead each page is copied at fault time, a
 * private copy, which is exactly MAP_PRIVATE's meaning as long as nothing
 * writes the file in between (Linux leaves unspecified which bytes a private
 * page sees after a later write(2) to the file).  MAP_SHARED would need the
 * pages themselves shared: ENODEV, documented in filemap.h.
 */
#include "kernel/mm/pmm.h"
#include "kernel/fs/filemap.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/aslrbench.h"

static void vm_file_get(void *file)
{
	file_get(file);
}

static void vm_file_put(void *file)
{
	file_put(file);
}

/* filemap_fault: a page past EOF is SIGBUS; the tail of the last page is zero. */
static int vm_file_fill(void *file, uint64_t off, void *page)
{
	struct inode *ino = ((struct file *)file)->inode;
	uint64_t n;

	if (off >= ino->size)
		return -EIO;
	n = ino->size - off < PAGE_SIZE ? ino->size - off : PAGE_SIZE;
	memcpy(page, ino->ram.data + off, n);
	memset((char *)page + n, 0, PAGE_SIZE - n);
	return 0;
}

static void vm_file_show(void *file, char *path, uint64_t n, uint32_t *dev, uint64_t *ino)
{
	struct inode *i = ((struct file *)file)->inode;

	if (inode_path(i, path, n) < 0 && n)
		path[0] = '\0';
	*dev = 1; /* the ramfs root's st_dev (sys_stat.c): 00:01 */
	*ino = i->ino;
}

const struct vm_operations_struct file_vm_ops = {vm_file_get, vm_file_put, vm_file_fill,
						 vm_file_show};

int file_mmap_check(struct file *f, bool shared, bool write)
{
	unsigned acc = f->f_flags & O_ACCMODE;
	struct inode *ino = f->inode;

	if (shared && write && acc != O_WRONLY && acc != O_RDWR)
		return -EACCES;
	if (acc != O_RDONLY && acc != O_RDWR)
		return -EACCES; /* FMODE_READ, checked for every mapping */
	if (!ino)
		return -ENODEV;
	if (S_ISCHR(ino->mode) && ino->rdev == DEV_ZERO && !(ino->op && ino->op->open))
		return shared ? -ENODEV : FILE_MMAP_ANON;
	if (!ino->ramfs || !S_ISREG(ino->mode) || shared)
		return -ENODEV;
	return 0;
}
