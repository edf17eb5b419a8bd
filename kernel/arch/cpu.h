/* Thin wrappers over x86_64 instructions the kernel needs; nothing clever. */
#ifndef KERNEL_ARCH_CPU_H
#define KERNEL_ARCH_CPU_H

#include <stdint.h>
#include <stdbool.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t read_cr0(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline void invlpg(uint64_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

/* MAXPHYADDR: CPUID 80000008h, or 36 where the leaf is missing (SDM). */
static inline unsigned cpu_phys_bits(void)
{
	uint32_t r[4];

	cpuid_count(0x80000000, 0, r);
	if (r[0] < 0x80000008)
		return 36;
	cpuid_count(0x80000008, 0, r);
	return (r[0] & 0xff) ? r[0] & 0xff : 36;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_rflags(void)
{
	uint64_t f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

/* Linux's irqs_disabled(): this CPU takes no interrupt now. */
static inline bool irqs_disabled(void)
{
	return !(read_rflags() & (1ULL << 9));
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" : : : "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" : : : "memory");
}

/* Returns the old interrupt flag so nested sections restore correctly. */
static inline uint64_t irq_save(void)
{
	uint64_t f = read_rflags();

	irq_disable();
	return f & (1ULL << 9);
}

static inline void irq_restore(uint64_t flags)
{
	if (flags)
		irq_enable();
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause");
}

static inline void halt(void)
{
	__asm__ volatile("hlt");
}

#define MSR_EFER      0xc0000080
#define MSR_STAR      0xc0000081
#define MSR_LSTAR     0xc0000082
#define MSR_CSTAR     0xc0000083
#define MSR_SFMASK    0xc0000084
#define MSR_FS_BASE   0xc0000100
#define MSR_GS_BASE   0xc0000101
#define MSR_KGS_BASE  0xc0000102
#define MSR_APIC_BASE 0x1b
#define EFER_SCE      (1ULL << 0)
#define EFER_NXE      (1ULL << 11)

#endif
