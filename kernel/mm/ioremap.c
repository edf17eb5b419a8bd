/*
 * Kernel mappings of device memory, as Linux's ioremap_wc().
 *
 * Why not the physmap: it covers RAM and the low 4 GiB with write-back
 * 2 MiB pages, while a framebuffer wants write-combining and may sit
 * anywhere in the 64-bit PCI window (firmware puts large BARs above
 * 4 GiB).  Extending the physmap up to such a BAR would cost page tables
 * for every hole in between and map MMIO cacheable.  Mappings go into
 * their own window in 4 KiB pages; the kernel half's PDPTs exist from
 * vmm_init, so every address space sees them.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/pat.h"
#include "kernel/lib/printk.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"

static uint64_t next_va = IOREMAP_START;

void *ioremap_wc(uint64_t phys, uint64_t size)
{
	uint64_t offset = phys & (PAGE_SIZE - 1), start = phys - offset, len, va;
	unsigned bits = cpu_phys_bits();

	if (!size || phys + size < phys) {
		kprintf("ioremap: empty or wrapping range 0x%lx+0x%lx\n", phys, size);
		return 0;
	}
	if (bits < 64 && phys + size > (1ULL << bits)) {
		kprintf("ioremap: 0x%lx+0x%lx is beyond the CPU's %u physical address bits\n", phys,
			size, bits);
		return 0;
	}
	len = (offset + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (len > IOREMAP_START + IOREMAP_SIZE - next_va) {
		kprintf("ioremap: no room for 0x%lx bytes\n", len);
		return 0;
	}
	va = next_va;
	for (uint64_t o = 0; o < len; o += PAGE_SIZE) {
		if (vmm_map_page(vmm_kernel_pml4(), va + o, start + o,
				 PTE_W | PTE_G | PTE_NX | pat_wc_flags())) {
			kprintf("ioremap: out of memory for page tables\n");
			iounmap((void *)(va + offset), o);
			return 0;
		}
	}
	next_va += len;
	return (void *)(va + offset);
}

void iounmap(void *addr, uint64_t size)
{
	uint64_t va = (uint64_t)addr & ~(PAGE_SIZE - 1);
	uint64_t end = (uint64_t)addr + size;

	for (; va < end; va += PAGE_SIZE)
		vmm_unmap_page(vmm_kernel_pml4(), va, 0);
}
