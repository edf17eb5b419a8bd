/*
 * set_thread_area and get_thread_area, after Linux 6.6's
 * arch/x86/kernel/tls.c: a task has GDT_ENTRY_TLS_ENTRIES (3) descriptors
 * of its own, GDT entries 12..14 (selectors 0x63, 0x6b, 0x73), filled from
 * a struct user_desc by fill_ldt (arch/x86/include/asm/desc.h) and copied
 * into the GDT whenever the task runs (load_TLS).  An IA-32 glibc or musl
 * points %gs at one of them for its thread pointer.
 *
 * The selectors themselves are the task's registers: saved when it stops
 * running and loaded when it runs again (__switch_to's savesegment and
 * load_seg_legacy).  A selector whose descriptor is no longer loadable (a
 * TLS entry cleared while in use) is loaded as 0, as Linux's loadsegment
 * fixup (EX_TYPE_CLEAR_FS) ends.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/segment.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/tls.h"

/* LDT_empty and LDT_zero (asm/desc.h): both clear the entry. */
static bool ldt_empty(const struct user_desc *i)
{
	return !i->base_addr && !i->limit && !i->contents && i->read_exec_only && !i->seg_32bit &&
	       !i->limit_in_pages && i->seg_not_present && !i->useable;
}

static bool ldt_zero(const struct user_desc *i)
{
	return !i->base_addr && !i->limit && !i->contents && !i->read_exec_only && !i->seg_32bit &&
	       !i->limit_in_pages && !i->seg_not_present && !i->useable && !i->lm;
}

/* tls_desc_okay: 32-bit, data or non-conforming code, present; or a clearing entry. */
static bool tls_desc_okay(const struct user_desc *i)
{
	if (ldt_empty(i) || ldt_zero(i))
		return true;
	if (!i->seg_32bit) /* no 16-bit or 64-bit segments */
		return false;
	if (i->contents > 1) /* contents 2, 3: a code segment, conforming or not */
		return false;
	if (i->seg_not_present)
		return false;
	return true;
}

/* fill_ldt: DPL 3, the accessed bit set, never L. */
static uint64_t fill_ldt(const struct user_desc *i)
{
	uint64_t type = ((uint64_t)(i->read_exec_only ^ 1) << 1) | ((uint64_t)i->contents << 2) | 1;

	return (i->limit & 0xffffULL) | ((uint64_t)(i->base_addr & 0xffffff) << 16) | (type << 40) |
	       (1ULL << 44) /* s */ | (3ULL << 45) /* dpl */ |
	       ((uint64_t)(i->seg_not_present ^ 1) << 47) |
	       ((uint64_t)(i->limit >> 16 & 0xf) << 48) | ((uint64_t)i->useable << 52) |
	       ((uint64_t)i->seg_32bit << 54) | ((uint64_t)i->limit_in_pages << 55) |
	       ((uint64_t)(i->base_addr >> 24) << 56);
}

/* What a selector loads on this CPU: itself if its descriptor is a present segment, else 0. */
static uint16_t loadable(uint16_t sel)
{
	uint64_t d;

	if (sel <= 3)
		return sel;
	if (sel & 4) /* an LDT selector: this kernel has no LDT (modify_ldt is ENOSYS) */
		return 0;
	d = gdt_entry(sel >> 3);
	/* present, a code or data segment (S), and no lower privilege than the selector asks */
	if (!(d & (1ULL << 47)) || !(d & (1ULL << 44)) || ((d >> 45) & 3) < (sel & 3u))
		return 0;
	/* a code segment must be readable to be loaded into a data segment register */
	if ((d & (1ULL << 43)) && !(d & (1ULL << 41)))
		return 0;
	return sel;
}

void reload_user_segments(uint16_t gs, uint16_t fs, uint16_t ds, uint16_t es)
{
	uint16_t cur;

	savesegment(gs, cur);
	if (gs != cur)
		load_gs_index(loadable(gs));
	savesegment(fs, cur);
	if (fs != cur)
		loadsegment(fs, loadable(fs));
	savesegment(ds, cur);
	if (ds != cur)
		loadsegment(ds, loadable(ds));
	savesegment(es, cur);
	if (es != cur)
		loadsegment(es, loadable(es));
}

static void load_segments(const struct task_struct *t)
{
	loadsegment(ds, loadable(t->ds));
	loadsegment(es, loadable(t->es));
	loadsegment(fs, loadable(t->fsindex));
	/* a null selector: the base is the task's arch_prctl one (load_seg_legacy) */
	if (t->fsindex <= 3)
		wrmsr(MSR_FS_BASE, t->fs_base);
	load_gs_index(loadable(t->gsindex));
	if (t->gsindex <= 3)
		wrmsr(MSR_KGS_BASE, t->gs_base);
}

static void save_segments(struct task_struct *t)
{
	uint16_t v;

	savesegment(ds, v);
	t->ds = v;
	savesegment(es, v);
	t->es = v;
	savesegment(fs, v);
	t->fsindex = v;
	savesegment(gs, v);
	t->gsindex = v;
}

void switch_user_segments(struct task_struct *prev, struct task_struct *next)
{
	if (!prev->kthread)
		save_segments(prev);
	if (next->kthread)
		return;
	gdt_load_tls(next->tls_array);
	load_segments(next);
}

void copy_user_segments(struct task_struct *p, struct task_struct *parent)
{
	save_segments(parent);
	p->ds = parent->ds;
	p->es = parent->es;
	p->fsindex = parent->fsindex;
	p->gsindex = parent->gsindex;
	memcpy(p->tls_array, parent->tls_array, sizeof(p->tls_array));
	p->ia32 = parent->ia32;
}

void exec_user_segments(struct task_struct *t, bool ia32)
{
	t->ia32 = ia32;
	memset(t->tls_array, 0, sizeof(t->tls_array));
	t->ds = t->es = ia32 ? USER_DS : 0;
	t->fsindex = t->gsindex = 0;
	t->fs_base = t->gs_base = 0;
	if (t != current) /* a spawned task: loaded when it first runs */
		return;
	gdt_load_tls(t->tls_array);
	load_segments(t);
}

/* get_free_idx: the first empty TLS entry. */
static int get_free_idx(const struct task_struct *p)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		if (!p->tls_array[i])
			return i + GDT_ENTRY_TLS_MIN;
	return -ESRCH;
}

int do_set_thread_area(struct task_struct *p, int idx, uint64_t u_info, int can_allocate)
{
	struct user_desc info;
	uint16_t modified_sel, sel;

	if (copy_from_user(&info, u_info, sizeof(info)))
		return -EFAULT;
	if (!tls_desc_okay(&info))
		return -EINVAL;
	if (idx == -1)
		idx = (int)info.entry_number;
	/* -1: the kernel picks an empty entry and tells the caller which */
	if (idx == -1 && can_allocate) {
		uint32_t n;

		if ((idx = get_free_idx(p)) < 0)
			return idx;
		n = (uint32_t)idx;
		if (copy_to_user(u_info, &n, sizeof(n)))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	p->tls_array[idx - GDT_ENTRY_TLS_MIN] =
		ldt_empty(&info) || ldt_zero(&info) ? 0 : fill_ldt(&info);
	if (p != current)
		return 0;
	gdt_load_tls(p->tls_array);
	/* A selector in use that names the entry is loaded again (its base may have changed). */
	modified_sel = (uint16_t)((idx << 3) | 3);
	savesegment(ds, sel);
	if (sel == modified_sel)
		loadsegment(ds, loadable(sel));
	savesegment(es, sel);
	if (sel == modified_sel)
		loadsegment(es, loadable(sel));
	savesegment(fs, sel);
	if (sel == modified_sel)
		loadsegment(fs, loadable(sel));
	savesegment(gs, sel);
	if (sel == modified_sel)
		load_gs_index(loadable(sel));
	return 0;
}

int tls_from_user(uint64_t u_info, int *idx, uint64_t *desc)
{
	struct user_desc info;

	if (copy_from_user(&info, u_info, sizeof(info)))
		return -EFAULT;
	if (!tls_desc_okay(&info))
		return -EINVAL;
	*idx = (int)info.entry_number;
	if (*idx < GDT_ENTRY_TLS_MIN || *idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	*desc = ldt_empty(&info) || ldt_zero(&info) ? 0 : fill_ldt(&info);
	return 0;
}

int do_get_thread_area(struct task_struct *p, int idx, uint64_t u_info)
{
	struct user_desc info;
	uint64_t d;

	if (idx == -1 && copy_from_user(&idx, u_info, sizeof(idx)))
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	d = p->tls_array[idx - GDT_ENTRY_TLS_MIN];
	/* fill_user_desc */
	memset(&info, 0, sizeof(info));
	info.entry_number = (uint32_t)idx;
	info.base_addr = (uint32_t)(((d >> 16) & 0xffffff) | ((d >> 56) << 24));
	info.limit = (uint32_t)((d & 0xffff) | (((d >> 48) & 0xf) << 16));
	info.seg_32bit = (d >> 54) & 1;
	info.contents = (d >> 42) & 3;
	info.read_exec_only = !((d >> 41) & 1);
	info.limit_in_pages = (d >> 55) & 1;
	info.seg_not_present = !((d >> 47) & 1);
	info.useable = (d >> 52) & 1;
	info.lm = (d >> 53) & 1;
	return copy_to_user(u_info, &info, sizeof(info)) ? -EFAULT : 0;
}
