/*
 * The vDSO's pages and their mapping (Linux 2.6.29's arch/x86/vdso/vma.c:
 * init_vdso_vars, arch_setup_additional_pages).
 *
 * Two pages, allocated once at boot and never freed: the text (the ELF
 * object built from kernel/arch/vdso/, embedded in the kernel image) and the
 * [vvar] data it reads its clock from (kernel/uapi/vvar.h).  The boot
 * reference keeps each page's count at 1 or more, so every process maps the
 * same two physical pages, fork shares them like any read-only page, and
 * teardown's page_ref_put never frees them: page_leak sees no change.
 *
 * The layout follows Linux 3.15 (text at the drawn address, [vvar] in the
 * page after it); 2.6.29 had no [vvar] and read vsyscall_gtod_data from the
 * fixed vsyscall page instead.  The draw itself is the rule set's vdso_addr() (kernel/aslr/),
 * sized for both pages.
 *
 * Under aslr_rules=6.x the 64-bit vDSO is laid out as Linux 6.12's
 * map_vdso does it: one get_unmapped_area for six pages, four [vvar] pages
 * at the bottom (the data page first; pvclock, hvclock and timens after it
 * are absent, so reading them is SIGBUS, as 6.12's vvar_fault gives where
 * they are unused) and two pages of [vdso] above (6.12's image is two
 * pages; this one's, zero-filled past its end, too).  The image is the same
 * code linked with [vvar] below it, plus __vdso_getrandom (vdso.mk,
 * vdso612.so), whose generation and readiness the [vvar] page carries.
 *
 * An IA-32 program gets the IA-32 vDSO (kernel/arch/vdso/vdso32/) instead:
 * a third page, its text, with the same [vvar] page after it.  Neither rule
 * set draws its address: 2.6.29's vdso32-setup.c arch_setup_additional_pages
 * (syscall32_setup_pages on x86_64, with vdso_enabled = sysctl_vsyscall32,
 * abi.vsyscall32, 1 by default: 0 mapped none, 2 the fixed 0xffffe000 of
 * VDSO_COMPAT) and 6.6's load_vdso32 (vdso32_enabled 1: map_vdso(image, 0))
 * both take get_unmapped_area(NULL, 0, len, 0, 0), the top of the mmap
 * area.  This kernel keeps the default, 1, with no sysctl to change it;
 * 2.6.29 mapped one page there (its vDSO had no clock functions and so no
 * [vvar]), this kernel two.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vdso.h"
#include "kernel/mm/vmm.h"
#include "kernel/uapi/vvar.h"

extern const uint8_t vdso_image_start[], vdso_image_end[];	 /* vdso.mk */
extern const uint8_t vdso32_image_start[], vdso32_image_end[];	 /* vdso.mk, the IA-32 one */
extern const uint8_t vdso612_image_start[], vdso612_image_end[]; /* vdso.mk, [vvar] below */

#define VVAR612_PAGES 4
#define VDSO612_PAGES 2

static uint64_t vdso_text_pa, vdso32_text_pa, vvar_pa, vdso612_text_pa, vdso612_pad_pa;

/*
 * The crng's state as the vDSO's getrandom sees it (vvar.h's
 * vdso_rng_data), kept here too so that a change before vdso_init reaches
 * the page when it is made.  The generation only grows: one step per base
 * key change, whatever base_crng.generation does (an init starts it over),
 * so a user state filled under an earlier key never matches again.
 */
static uint64_t rng_generation;
static bool rng_ready;

static void vvar_rng_publish(void)
{
	struct vvar_data *v;

	if (!vvar_pa)
		return;
	v = phys_to_virt(vvar_pa);
	__atomic_store_n(&v->rng.is_ready, rng_ready, __ATOMIC_RELAXED);
	/* pairs with the vDSO's read before it asks for a key (6.12's smp_store_release) */
	__atomic_store_n(&v->rng.generation, rng_generation, __ATOMIC_RELEASE);
}

void vdso_rng_generation_advance(unsigned long base_generation)
{
	(void)base_generation;
	__atomic_add_fetch(&rng_generation, 1, __ATOMIC_RELAXED);
	vvar_rng_publish();
}

void vdso_rng_set_ready(void)
{
	rng_ready = true;
	vvar_rng_publish();
}

const void *vdso_image(bool vvar_below, uint64_t *size)
{
	if (vvar_below) {
		*size = (uint64_t)(vdso612_image_end - vdso612_image_start);
		return vdso612_image_start;
	}
	*size = (uint64_t)(vdso_image_end - vdso_image_start);
	return vdso_image_start;
}

const void *vdso32_image(uint64_t *size)
{
	*size = (uint64_t)(vdso32_image_end - vdso32_image_start);
	return vdso32_image_start;
}

/*
 * The entry __kernel_vsyscall uses, as 6.6's ALTERNATIVE_2 in
 * vdso32/system_call.S picks it: "movl %ecx, %ebp; syscall" where
 * X86_FEATURE_SYSCALL32 is set (amd.c and hygon.c set it on 64-bit
 * kernels: AMD CPUs take syscall from compatibility mode),
 * "movl %esp, %ebp; sysenter" where X86_FEATURE_SYSENTER32 is (intel.c,
 * centaur.c, zhaoxin.c: their CPUs take sysenter from compatibility mode),
 * else the nop, and int $0x80.  The vendor alone decides, as in those files.
 */
static const uint8_t *vsyscall_entry_insn(void)
{
	static const uint8_t syscall_seq[4] = {0x89, 0xcd, 0x0f, 0x05};
	static const uint8_t sysenter_seq[4] = {0x89, 0xe5, 0x0f, 0x34};
	uint32_t r[4];
	char vendor[12];

	cpuid_count(0, 0, r);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	if (!memcmp(vendor, "AuthenticAMD", 12) || !memcmp(vendor, "HygonGenuine", 12))
		return syscall_seq;
	if (!memcmp(vendor, "GenuineIntel", 12) || !memcmp(vendor, "CentaurHauls", 12) ||
	    !memcmp(vendor, "  Shanghai  ", 12))
		return sysenter_seq;
	return 0;
}

/* The aslr_rules=6.x text: its two pages (the image, zero-filled past its end). */
static int vdso612_init(uint64_t size)
{
	vdso612_text_pa = pmm_alloc_page();
	vdso612_pad_pa = pmm_alloc_page();
	if (!vdso612_text_pa || !vdso612_pad_pa) {
		if (vdso612_text_pa)
			pmm_free_page(vdso612_text_pa);
		if (vdso612_pad_pa)
			pmm_free_page(vdso612_pad_pa);
		vdso612_text_pa = vdso612_pad_pa = 0;
		kprintf("vdso: out of memory: no vDSO\n");
		return -ENOMEM;
	}
	clear_page(phys_to_virt(vdso612_text_pa));
	clear_page(phys_to_virt(vdso612_pad_pa));
	memcpy(phys_to_virt(vdso612_text_pa), vdso612_image_start,
	       size < PAGE_SIZE ? size : PAGE_SIZE);
	if (size > PAGE_SIZE)
		memcpy(phys_to_virt(vdso612_pad_pa), vdso612_image_start + PAGE_SIZE,
		       size - PAGE_SIZE);
	return 0;
}

int vdso_init(void)
{
	uint64_t size = (uint64_t)(vdso_image_end - vdso_image_start);
	uint64_t size32 = (uint64_t)(vdso32_image_end - vdso32_image_start);
	struct vvar_data *v;

	uint64_t size612 = (uint64_t)(vdso612_image_end - vdso612_image_start);

	/* vdso.mk checked them; a kernel built around that check still says why */
	if (size < 64 || size > PAGE_SIZE || memcmp(vdso_image_start, "\177ELF", 4) ||
	    size32 < 64 || size32 > PAGE_SIZE || memcmp(vdso32_image_start, "\177ELF", 4) ||
	    size612 < 64 || size612 > VDSO612_PAGES * PAGE_SIZE ||
	    memcmp(vdso612_image_start, "\177ELF", 4)) {
		kprintf("vdso: the embedded images (%lu, %lu, %lu bytes) are not ELFs of their "
			"pages (1, 1, 2): no vDSO\n",
			size, size32, size612);
		return -ENOEXEC;
	}
	if (vdso612_init(size612))
		return -ENOMEM;
	vdso_text_pa = pmm_alloc_page();
	vdso32_text_pa = pmm_alloc_page();
	vvar_pa = pmm_alloc_page();
	if (!vdso_text_pa || !vdso32_text_pa || !vvar_pa) {
		if (vdso_text_pa)
			pmm_free_page(vdso_text_pa);
		if (vdso32_text_pa)
			pmm_free_page(vdso32_text_pa);
		if (vvar_pa)
			pmm_free_page(vvar_pa);
		vdso_text_pa = vdso32_text_pa = vvar_pa = 0;
		kprintf("vdso: out of memory: no vDSO\n");
		return -ENOMEM;
	}
	clear_page(phys_to_virt(vdso_text_pa));
	memcpy(phys_to_virt(vdso_text_pa), vdso_image_start, size);
	clear_page(phys_to_virt(vdso32_text_pa));
	memcpy(phys_to_virt(vdso32_text_pa), vdso32_image_start, size32);
	if (vsyscall_entry_insn())
		memcpy((uint8_t *)phys_to_virt(vdso32_text_pa) + vdso32_sym_vdso32_entry_alt,
		       vsyscall_entry_insn(), 4);
	v = phys_to_virt(vvar_pa);
	clear_page(v);
	tsc_clock_params(&v->mult, &v->shift);
	v->magic = VVAR_MAGIC;
	vvar_rng_publish();
	return 0;
}

/* install_special_mapping: one present page, its own reference taken. */
static int install_page(struct mm_struct *mm, uint64_t va, uint64_t pa, bool exec)
{
	uint64_t *pte = vmm_walk(mm->pml4, va, true);

	if (!pte)
		return -ENOMEM;
	page_ref_get(pa);
	*pte = pa | PTE_P | PTE_U | (exec ? 0 : PTE_NX);
	mm->rss_pages++;
	return 0;
}

/* 6.12's map_vdso(image, 0): [vvar] (4 pages) then [vdso] (2), where get_unmapped_area finds room.
 */
static int map_vdso_612(struct mm_struct *mm)
{
	uint64_t len = (VVAR612_PAGES + VDSO612_PAGES) * PAGE_SIZE, text;
	uint64_t addr = mm_get_unmapped_area(mm, len);
	int rc;

	if (!addr)
		return -ENOMEM;
	text = addr + VVAR612_PAGES * PAGE_SIZE;
	if ((rc = mm_add_vma(mm, addr, text, VM_READ, VMA_VVAR, 0)) ||
	    (rc = mm_add_vma(mm, text, addr + len, VM_READ | VM_EXEC, VMA_VDSO, 0)) ||
	    (rc = install_page(mm, addr, vvar_pa, false)) ||
	    (rc = install_page(mm, text, vdso612_text_pa, true)) ||
	    (rc = install_page(mm, text + PAGE_SIZE, vdso612_pad_pa, true)))
		return rc; /* the caller drops the whole mm */
	mm->vdso = text;
	mm->vvar = addr;
	return 0;
}

int map_vdso(struct mm_struct *mm, bool ia32)
{
	uint64_t addr = ia32 ? 0 : mm->vdso_base, text_pa = ia32 ? vdso32_text_pa : vdso_text_pa;
	int rc;

	mm->vdso = 0;
	if (!text_pa)
		return 0;
	if (!ia32 && aslr_rules_current()->vdso_vvar_below)
		return map_vdso_612(mm);
	/* get_unmapped_area(NULL, addr, len, 0, 0): the hint when it is free, else top-down */
	if (!addr || (addr & (PAGE_SIZE - 1)) || !mm_range_free(mm, addr, addr + VDSO_MAP_LEN))
		addr = mm_get_unmapped_area(mm, VDSO_MAP_LEN);
	if (!addr)
		return -ENOMEM;
	if ((rc = mm_add_vma(mm, addr, addr + PAGE_SIZE, VM_READ | VM_EXEC, VMA_VDSO, 0)) ||
	    (rc = mm_add_vma(mm, addr + PAGE_SIZE, addr + VDSO_MAP_LEN, VM_READ, VMA_VVAR, 0)) ||
	    (rc = install_page(mm, addr, text_pa, true)) ||
	    (rc = install_page(mm, addr + PAGE_SIZE, vvar_pa, false)))
		return rc; /* the caller drops the whole mm */
	mm->vdso = addr;
	mm->vvar = addr + PAGE_SIZE;
	return 0;
}
