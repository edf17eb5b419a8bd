/*
 * Inodes and the ramfs: see vfs.h.  Static pools, so a user filling the
 * file system meets ENOSPC, never a kernel out of memory.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/timer.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/mm.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/fail_nth.h"
#include "kernel/task/sched.h"
#include "kernel/task/task.h"

static struct inode inodes[NR_INODES];
/*
 * Every slot below this one is in use, so inode_alloc starts its search
 * here and still takes the lowest free slot: the initramfs fills the
 * first few hundred for good, and each /proc open used to walk past them
 * all (13,000 instructions of a 21,000-instruction open of
 * /proc/self/stat).  iput, the one place a slot becomes free, lowers it.
 */
static int inode_free_hint;
static struct dentry dentries[NR_DENTRIES];
static struct dentry *free_dentries;
static bool dentries_ready;
static uint32_t next_ino = 1;
static uint64_t ramfs_pages; /* file data, all files: at most half of memory, as tmpfs's default */
struct inode *root_inode;

static const struct inode_ops ramfs_ops;

/* Seconds since boot: there is no wall clock; stat shows it (as the epoch + uptime). */
int64_t vfs_now(void)
{
	return (int64_t)((jiffies - initial_jiffies) / timer_hz());
}

/*
 * A fault site of /proc/self/fail-nth: an injected failure is ENOMEM, as
 * Linux 6.6's new_inode (alloc_inode) failing; a full pool is ENOSPC, as a
 * tmpfs out of inodes (shmem_reserve_inode).
 */
struct inode *inode_alloc(uint32_t mode, const struct inode_ops *op, long *err)
{
	long dummy;

	if (!err)
		err = &dummy;
	if (should_fail_alloc()) {
		*err = -ENOMEM;
		return 0;
	}
	for (int i = inode_free_hint; i < NR_INODES; i++) {
		struct inode *n = &inodes[i];

		if (n->refs || n->nlink)
			continue;
		inode_free_hint = i + 1;
		memset(n, 0, sizeof(*n));
		n->refs = 1;
		n->ino = next_ino++;
		n->mode = mode;
		n->op = op;
		n->mtime = n->ctime = n->atime = vfs_now();
		return n;
	}
	*err = -ENOSPC;
	return 0;
}

uint64_t vfs_ramfs_pages(void)
{
	return ramfs_pages;
}

int vfs_dentries_in_use(void)
{
	int n = 0;

	for (int i = 0; i < NR_DENTRIES; i++)
		n += dentries[i].inode != 0;
	return n;
}

int vfs_inodes_in_use(void)
{
	int n = 0;

	for (int i = 0; i < NR_INODES; i++)
		n += inodes[i].refs || inodes[i].nlink;
	return n;
}

void vfs_inode_map(uint8_t map[NR_INODES])
{
	for (int i = 0; i < NR_INODES; i++)
		map[i] = inodes[i].refs || inodes[i].nlink;
}

void vfs_print_new_inodes(const uint8_t before[NR_INODES])
{
	char path[128];

	for (int i = 0; i < NR_INODES; i++) {
		if (before[i] || !(inodes[i].refs || inodes[i].nlink))
			continue;
		if (inode_path(&inodes[i], path, sizeof(path)) < 0)
			strlcpy(path, "?", sizeof(path));
		kprintf("  new inode %u: mode 0x%x, nlink %u, %d references, at %s\n",
			inodes[i].ino, inodes[i].mode, inodes[i].nlink, inodes[i].refs, path);
	}
}

void vfs_print_orphans(void)
{
	for (int i = 0; i < NR_INODES; i++)
		if (inodes[i].ramfs && inodes[i].refs && !inodes[i].nlink)
			kprintf("  orphan inode %u: mode 0x%x, %d references, %lu bytes%s\n",
				inodes[i].ino, inodes[i].mode, inodes[i].refs, inodes[i].size,
				inodes[i].dead ? ", a removed directory" : "");
}

int vfs_orphans_in_use(void)
{
	int n = 0;

	for (int i = 0; i < NR_INODES; i++)
		n += inodes[i].ramfs && inodes[i].refs && !inodes[i].nlink;
	return n;
}

void iget(struct inode *ino)
{
	ino->refs++;
}

static uint64_t window_of(const struct inode *ino)
{
	return RAMFS_WINDOW_START + (uint64_t)(ino - inodes) * FILE_SIZE_MAX;
}

/*
 * Holes: a page of the window that no write has reached maps one shared
 * zero page read-only, as tmpfs leaves holes unallocated, so ftruncate to
 * 64 MiB maps 16,384 entries and clears nothing; a write makes its pages
 * real first (ramfs_prepare_write).
 */
static uint64_t zero_page;

/* Is the page holding va (any byte of it) a hole? */
static bool is_hole(uint64_t va)
{
	uint64_t pa;

	return !vmm_translate(vmm_kernel_pml4(), va & ~(PAGE_SIZE - 1), &pa, 0) && pa == zero_page;
}

/*
 * Growing or shrinking a 64 MiB file maps or clears 16,384 entries of its
 * window, hundreds of milliseconds under emulation: truncate gives up the
 * CPU every 2 MiB, as Linux 6.6's shmem_undo_range does between batches
 * (growing is O(1) there; here holes are mapped).  The caller holds the
 * inode lock; a grown file's size changes after its pages exist, a shrunk
 * one's before they go, so a reader never reaches a page being changed.
 */
#define RESCHED_PAGES 512

/*
 * Unmaps the file's pages from page `from` on, frees the real ones and their
 * page tables; with may_yield (truncate) a preemption point every 2 MiB.
 */
static void ramfs_shrink_pages(struct inode *ino, uint64_t from, bool may_yield)
{
	uint64_t base = window_of(ino), pa;
	bool batch = ino->ram.pages > from + VMM_FLUSH_CEILING;

	for (uint64_t p = from; p < ino->ram.pages; p++) {
		uint64_t va = base + p * PAGE_SIZE;
		int rc = batch ? vmm_clear_page(vmm_kernel_pml4(), va, &pa)
			       : vmm_unmap_page(vmm_kernel_pml4(), va, &pa);

		if (!rc && pa != zero_page) {
			pmm_free_page(pa);
			ramfs_pages--;
			ino->ram.blocks--;
		}
		/* the table of a 2 MiB block goes with its last page */
		if ((p + 1) % 512 == 0 || p + 1 == ino->ram.pages)
			vmm_free_table(vmm_kernel_pml4(), base + p * PAGE_SIZE);
		/* no stale entry to a freed page may outlive the yield */
		if (may_yield && (p + 1 - from) % RESCHED_PAGES == 0 && current->need_resched) {
			if (batch)
				vmm_flush_all();
			cond_resched();
		}
	}
	/* before anything can reuse a freed page: nothing read the window meanwhile */
	if (batch)
		vmm_flush_all();
	if (from < ino->ram.pages)
		ino->ram.pages = from;
	if (!ino->ram.pages)
		ino->ram.data = 0;
}

/* No yield: iput frees a file in the middle of a rename or an unlink. */
static void ramfs_free_data(struct inode *ino)
{
	ramfs_shrink_pages(ino, 0, false);
}

/* Extends the file to `pages` with holes; on failure (page tables) it keeps its size. */
static int ramfs_grow_pages(struct inode *ino, uint64_t pages)
{
	uint64_t base = window_of(ino), old = ino->ram.pages;

	for (uint64_t p = old; p < pages; p++) {
		if (vmm_map_page(vmm_kernel_pml4(), base + p * PAGE_SIZE, zero_page,
				 PTE_G | PTE_NX)) {
			ramfs_shrink_pages(ino, old, false);
			return -ENOMEM;
		}
		ino->ram.pages = p + 1;
		ino->ram.data = (char *)base;
		if ((p + 1 - old) % RESCHED_PAGES == 0)
			cond_resched();
	}
	ino->ram.data = (char *)base;
	return 0;
}

int ramfs_prepare_write(struct inode *ino, uint64_t off, uint64_t n)
{
	uint64_t base = window_of(ino);

	for (uint64_t p = off / PAGE_SIZE; n && p <= (off + n - 1) / PAGE_SIZE; p++) {
		uint64_t va = base + p * PAGE_SIZE, pa;

		if (!is_hole(va))
			continue;
		if (ramfs_pages + 1 > pmm_total_count() / 2)
			return -ENOSPC; /* tmpfs's default size: half of memory */
		/*
		 * Out of pages (or a fail-nth injection in the page allocator):
		 * ENOMEM, as Linux 6.6's shmem_get_folio_gfp when the folio
		 * allocation fails (and ramfs's simple_write_begin).
		 */
		if (!(pa = pmm_alloc_page()))
			return -ENOMEM;
		clear_page(phys_to_virt(pa));
		vmm_unmap_page(vmm_kernel_pml4(), va, 0);
		vmm_map_page(vmm_kernel_pml4(), va, pa, PTE_W | PTE_G | PTE_NX); /* tables exist */
		ramfs_pages++;
		ino->ram.blocks++;
	}
	return 0;
}

bool inode_lockable(const struct inode *ino)
{
	return ino && ino->ramfs && S_ISREG(ino->mode);
}

void inode_lock(struct inode *ino)
{
	mutex_lock(&ino->i_rwsem, inode_lock);
}

void inode_unlock(struct inode *ino)
{
	mutex_unlock(&ino->i_rwsem);
}

void iput(struct inode *ino)
{
	if (!ino || --ino->refs > 0 || ino->nlink)
		return;
	if (ino >= inodes && ino < inodes + inode_free_hint)
		inode_free_hint = (int)(ino - inodes);
	if (ino->op && ino->op->release)
		ino->op->release(ino);
	if (ino->ramfs)
		ramfs_free_data(ino);
	ino->mode = 0;
}

struct inode *ramfs_new(uint32_t mode, uint32_t uid, uint32_t gid, long *err)
{
	struct inode *n = inode_alloc(mode, &ramfs_ops, err);

	kernel_lock_assert_held("ramfs_new");
	if (!n)
		return 0;
	n->ramfs = true;
	n->uid = uid;
	n->gid = gid;
	return n;
}

int ramfs_lookup(struct inode *dir, const char *name, struct inode **out)
{
	if (dir->dead)
		return -ENOENT;
	for (struct dentry *d = dir->ram.children; d; d = d->next) {
		if (!strcmp(d->name, name)) {
			*out = d->inode;
			iget(d->inode);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * A name (Linux's dentry): a fault site of /proc/self/fail-nth, ENOMEM as
 * Linux 6.6's d_alloc failing; a full pool is ENOSPC.
 */
struct dentry *ramfs_d_alloc(long *err)
{
	struct dentry *d;

	if (should_fail_alloc()) {
		*err = -ENOMEM;
		return 0;
	}
	if (!dentries_ready) {
		for (int i = NR_DENTRIES - 1; i >= 0; i--) {
			dentries[i].next = free_dentries;
			free_dentries = &dentries[i];
		}
		dentries_ready = true;
	}
	if (!free_dentries) {
		*err = -ENOSPC;
		return 0;
	}
	d = free_dentries;
	free_dentries = d->next;
	d->next = 0;
	return d;
}

void ramfs_d_free(struct dentry *d)
{
	d->inode = 0;
	d->next = free_dentries;
	free_dentries = d;
}

/* Puts d (from ramfs_d_alloc) in dir as name; cannot fail. */
void ramfs_d_add(struct inode *dir, const char *name, struct inode *ino, struct dentry *d)
{
	strlcpy(d->name, name, sizeof(d->name));
	d->inode = ino;
	d->next = dir->ram.children;
	dir->ram.children = d;
	ino->nlink++;
	if (S_ISDIR(ino->mode)) {
		ino->parent = dir;
		ino->nlink++; /* its own "." */
		dir->nlink++; /* its ".." */
	}
	dir->mtime = dir->ctime = vfs_now();
}

int ramfs_link(struct inode *dir, const char *name, struct inode *ino)
{
	struct inode *old;
	struct dentry *d;
	long err;

	kernel_lock_assert_held("ramfs_link");
	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	if (dir->dead)
		return -ENOENT;
	if (!ramfs_lookup(dir, name, &old)) {
		iput(old);
		return -EEXIST;
	}
	d = ramfs_d_alloc(&err);
	if (!d)
		return (int)err;
	ramfs_d_add(dir, name, ino, d);
	return 0;
}

int ramfs_unlink(struct inode *dir, const char *name)
{
	for (struct dentry **pp = &dir->ram.children; *pp; pp = &(*pp)->next) {
		struct dentry *d = *pp;
		struct inode *ino = d->inode;

		if (strcmp(d->name, name))
			continue;
		*pp = d->next;
		ramfs_d_free(d);
		if (S_ISDIR(ino->mode)) {
			/* its name and its "." go; its subdirectories' ".." stay (rename) */
			ino->nlink = ino->nlink >= 2 ? ino->nlink - 2 : 0;
			dir->nlink--;
			/* ".." of a removed directory (someone's cwd) must not point at a freed one
			 */
			ino->parent = root_inode;
		} else {
			ino->nlink--;
		}
		ino->ctime = dir->mtime = dir->ctime = vfs_now();
		/* Freed now if nobody holds it open (iput's rule, without a reference). */
		if (!ino->refs && !ino->nlink) {
			ino->refs = 1;
			iput(ino);
		}
		return 0;
	}
	return -ENOENT;
}

bool ramfs_dir_empty(struct inode *dir)
{
	return !dir->ram.children;
}

int ramfs_truncate(struct inode *ino, uint64_t size)
{
	uint64_t pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;

	if (size > FILE_SIZE_MAX)
		return -EFBIG;
	if (pages > ino->ram.pages) {
		int rc = ramfs_grow_pages(ino, pages);

		if (rc)
			return rc;
	} else if (size < ino->size) {
		/* the tail of the last page reads as zeros if the file grows again */
		if (size % PAGE_SIZE && !is_hole((uint64_t)ino->ram.data + size))
			memset(ino->ram.data + size, 0, PAGE_SIZE - size % PAGE_SIZE);
		/* the new size first, as truncate_setsize: a reader never reaches a cleared page */
		ino->size = size;
		ramfs_shrink_pages(ino, pages, true);
	}
	ino->size = size;
	ino->mtime = ino->ctime = vfs_now();
	return 0;
}

int ramfs_set_data(struct inode *ino, const void *data, uint64_t size)
{
	int rc = ramfs_truncate(ino, size);

	if (!rc && size && !(rc = ramfs_prepare_write(ino, 0, size)))
		memcpy(ino->ram.data, data, size);
	return rc;
}

static int ramfs_readdir(struct inode *dir, uint64_t idx, struct dirent_out *out)
{
	struct dentry *d = dir->ram.children;

	for (uint64_t i = 2; d && i < idx; i++)
		d = d->next;
	if (!d)
		return 1;
	strlcpy(out->name, d->name, sizeof(out->name));
	out->ino = d->inode->ino;
	out->type = (unsigned char)((d->inode->mode & S_IFMT) >> 12);
	return 0;
}

static long ramfs_readlink(struct inode *ino, char *buf, size_t n)
{
	size_t len = ino->size < n ? ino->size : n;

	memcpy(buf, ino->ram.data, len);
	return (long)len;
}

static const struct inode_ops ramfs_ops = {
	.lookup = ramfs_lookup,
	.readdir = ramfs_readdir,
	.readlink = ramfs_readlink,
	.open = 0, /* vfs_open_inode serves ramfs files itself */
	.release = 0,
	.magic = 0x858458f6, /* RAMFS_MAGIC */
	.st_flags = ST_VALID | ST_RELATIME,
};

void vfs_mount(struct inode *dir, struct inode *fs_root)
{
	dir->mounted = fs_root;
	fs_root->covered = dir;
	fs_root->parent = dir->parent;
}

static void cwd_get(struct inode *ino)
{
	iget(ino);
}

static void exe_get(void *ino)
{
	iget(ino);
}

static void exe_put(void *ino)
{
	iput(ino);
}

void vfs_task_hooks(void)
{
	task_inode_get = cwd_get;
	task_inode_put = iput;
	exe_file_get = exe_get; /* mm->exe_file: the executable's inode */
	exe_file_put = exe_put;
}

/*
 * The page directories of the whole window, made once: a file's page tables
 * come and go with its pages, the 64 directories above them stay, so the
 * kernel's page count returns to where it was when the files are gone.
 */
static void ramfs_window_init(void)
{
	if (!(zero_page = pmm_alloc_page()))
		panic("vfs: no memory for the ramfs zero page");
	clear_page(phys_to_virt(zero_page));
	for (uint64_t va = RAMFS_WINDOW_START; va < RAMFS_WINDOW_START + NR_INODES * FILE_SIZE_MAX;
	     va += 1ULL << 30) {
		if (!vmm_walk(vmm_kernel_pml4(), va, true))
			panic("vfs: no memory for the ramfs window's page directories");
		vmm_free_table(vmm_kernel_pml4(), va);
	}
}

void vfs_init(void)
{
	ramfs_window_init();
	root_inode = ramfs_new(S_IFDIR | 0755, 0, 0, 0);
	root_inode->parent = root_inode;
	root_inode->nlink = 2;
	vfs_task_hooks();
}
