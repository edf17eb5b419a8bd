/* phys_to_virt and friends: the boot stub's identity map, then the physmap. */
#include "boot/boot_info.h"
#include "kernel/arch/page.h"

uint64_t kernel_phys_base;
static uint64_t physmap_top; /* the physmap covers [0, physmap_top) */
static bool physmap_live;

void *phys_to_virt(uint64_t phys)
{
	/* Before the physmap exists the boot stub's identity map serves. */
	return (void *)(physmap_live ? phys + PHYS_OFFSET : phys);
}

uint64_t virt_to_phys(const void *virt)
{
	uint64_t v = (uint64_t)virt;

	if (v >= KERNEL_VBASE)
		return v - KERNEL_VBASE + kernel_phys_base;
	return v - PHYS_OFFSET;
}

uint64_t vmm_physmap_top(void)
{
	/* Before the physmap, the boot stub's identity map covers 4 GiB. */
	return physmap_live ? physmap_top : 0x100000000ULL;
}

bool physmap_is_live(void)
{
	return physmap_live;
}

void physmap_set_live(uint64_t top)
{
	physmap_top = top;
	physmap_live = true;
}
