#ifndef KERNEL_MM_IOREMAP_H
#define KERNEL_MM_IOREMAP_H

#include <stdint.h>

/* Device memory (the framebuffer) gets its own kernel mappings here. */
#define IOREMAP_START 0xffffc90000000000ULL
#define IOREMAP_SIZE  (64ULL << 30)

/*
 * Maps [phys, phys + size) write-combining, wherever it lies below the
 * CPU's physical address width (above 4 GiB included).  NULL, with the
 * reason printed, when the range is empty, wraps, exceeds MAXPHYADDR or
 * does not fit the ioremap window.
 */
void *ioremap_wc(uint64_t phys, uint64_t size);
/* Removes a mapping made by ioremap_wc (the window is not reused). */
void iounmap(void *addr, uint64_t size);

#endif
