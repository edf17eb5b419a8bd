/* CPUID probing; see cpu.h.  Leaf numbers are from the Intel SDM / AMD APM. */
#include <cpuid.h>

#include "common/cpu.h"
#include "common/tsc.h"

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static void put_reg(char *dst, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		dst[i] = (char)(v >> (8 * i));
}

static bool streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static void detect_brand(struct bench_cpu *c, uint32_t max_ext)
{
	uint32_t r[4];
	char raw[49];
	int i, j = 0;

	c->brand[0] = '\0';
	if (max_ext < 0x80000004)
		return;
	for (uint32_t leaf = 0; leaf < 3; leaf++) {
		cpuid(0x80000002 + leaf, 0, r);
		for (i = 0; i < 4; i++)
			put_reg(raw + 16 * leaf + 4 * i, r[i]);
	}
	raw[48] = '\0';
	for (i = 0; raw[i] == ' '; i++)
		;
	for (; raw[i]; i++)
		c->brand[j++] = raw[i];
	while (j > 0 && c->brand[j - 1] == ' ')
		j--;
	c->brand[j] = '\0';
}

/*
 * Leaf 0x15 gives the crystal ratio (Intel Skylake+), 0x16 the base MHz
 * (close to the TSC rate on Intel), and KVM/VMware publish the TSC kHz at
 * 0x40000010.  AMD has none of these: the caller then has to measure.
 */
static void detect_tsc_hz(struct bench_cpu *c, uint32_t max_std)
{
	uint32_t r[4];

	c->tsc_hz_cpuid = 0;
	c->tsc_hz_source = "none";
	if (max_std >= 0x15) {
		cpuid(0x15, 0, r);
		if (r[0] && r[1] && r[2]) {
			c->tsc_hz_cpuid = (uint64_t)r[2] * r[1] / r[0];
			c->tsc_hz_source = "cpuid15";
			return;
		}
	}
	if (max_std >= 0x16) {
		cpuid(0x16, 0, r);
		if (r[0] & 0xffff) {
			c->tsc_hz_cpuid = (uint64_t)(r[0] & 0xffff) * 1000000;
			c->tsc_hz_source = "cpuid16";
			return;
		}
	}
	if (c->hypervisor) {
		cpuid(0x40000000, 0, r);
		if (r[0] >= 0x40000010) {
			cpuid(0x40000010, 0, r);
			if (r[0]) {
				c->tsc_hz_cpuid = (uint64_t)r[0] * 1000;
				c->tsc_hz_source = "hypervisor";
			}
		}
	}
}

/*
 * The most common delta between back-to-back RDTSCs (the minimum is no
 * good: scaled guest TSCs show odd 1-cycle steps).  Mode, not mean, so that
 * an interrupt in between does not count.
 */
static uint32_t measure_tsc_step(void)
{
	uint16_t hist[256] = {0};
	uint64_t prev = tsc_read();
	uint32_t best = 0;

	for (int i = 0; i < 4096; i++) {
		uint64_t now = tsc_read(), d = now - prev;

		if (d > 0 && d < 256)
			hist[d]++;
		prev = now;
	}
	for (uint32_t d = 1; d < 256; d++)
		if (hist[d] > hist[best])
			best = d;
	return best;
}

void bench_cpu_detect(struct bench_cpu *c)
{
	uint32_t r[4], max_std, max_ext, fam;

	cpuid(0, 0, r);
	max_std = r[0];
	put_reg(c->vendor, r[1]);
	put_reg(c->vendor + 4, r[3]);
	put_reg(c->vendor + 8, r[2]);
	c->vendor[12] = '\0';

	cpuid(1, 0, r);
	fam = (r[0] >> 8) & 0xf;
	c->family = fam == 0xf ? fam + ((r[0] >> 20) & 0xff) : fam;
	c->model = (r[0] >> 4) & 0xf;
	if (fam == 0x6 || fam == 0xf)
		c->model |= ((r[0] >> 16) & 0xf) << 4;
	c->stepping = r[0] & 0xf;
	c->hypervisor = (r[2] >> 31) & 1;
	c->clflush = (r[3] >> 19) & 1;

	cpuid(0x80000000, 0, r);
	max_ext = r[0];
	c->rdtscp = false;
	c->invariant_tsc = false;
	if (max_ext >= 0x80000001) {
		cpuid(0x80000001, 0, r);
		c->rdtscp = (r[3] >> 27) & 1;
	}
	if (max_ext >= 0x80000007) {
		cpuid(0x80000007, 0, r);
		c->invariant_tsc = (r[3] >> 8) & 1;
	}
	detect_brand(c, max_ext);
	detect_tsc_hz(c, max_std);
	c->serialise = streq(c->vendor, "AuthenticAMD") || streq(c->vendor, "HygonGenuine")
			       ? BENCH_SER_LFENCE
			       : BENCH_SER_CPUID;
	c->tsc_step = measure_tsc_step();
}

const char *bench_serialise_name(enum bench_serialise s)
{
	return s == BENCH_SER_LFENCE ? "lfence" : "cpuid";
}

void bench_clflush_range(const void *lo, const void *hi)
{
	const char *p = (const char *)((uintptr_t)lo & ~(uintptr_t)63);

	for (; p < (const char *)hi; p += 64)
		__asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
	__asm__ volatile("mfence" : : : "memory");
}
