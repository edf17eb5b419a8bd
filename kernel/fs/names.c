/*
 * Path-name buffers (names.h).
 *
 * Why not static buffers: one static buffer serves every task, so it is
 * right only while the big kernel lock is held from the first write to
 * the last read and nothing in between sleeps or gives the lock up; a
 * path walk that one day sleeps, or a call moved off the lock, would
 * share it with another CPU's call without a word.  Why not the stack:
 * PATH_MAX is a quarter of a 16 KiB kernel stack, and a walk nests.  So
 * each call takes its own page, as Linux's names_cachep gives each its
 * own object; the page allocator's per-CPU lists make that a pop.
 */
#include "kernel/arch/page.h"
#include "kernel/fs/names.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/pmm.h"

_Static_assert(PATH_MAX <= 4096, "a name buffer is one page");

char *__getname(void)
{
	uint64_t page = pmm_alloc_page();

	return page ? phys_to_virt(page) : 0;
}

void __putname(char *name)
{
	if (name)
		pmm_free_page(virt_to_phys(name));
}
